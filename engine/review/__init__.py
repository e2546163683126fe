"""Game review: each decision of one seat valued by a reviewer from that seat's own view.

``review_document(data, seat, reviewer)`` (or ``review_record`` / ``review_log`` /
``review_game``) plays a finished game again (engine/review/game.py), stops at each of the
seat's decisions (center.py), asks the reviewer for a value per legal choice from what the
seat could see then (moment.py), and grades the choice the game took: agree, close,
mistake, blunder by the reviewer's gaps (report.py, whose JSON follows mjai-reviewer's).
Reviewers: ``StrongReviewer`` (the strong bot's own scores, strong.py) and ``MjaiReviewer``
(any mjai AI answering with Mortal's ``meta.q_values``, mjai.py; its process is the
caller's). ``python -m engine.review`` is the command line (docs/review.md).
"""

from engine.review.game import (
    ReviewError,
    review_document,
    review_game,
    review_log,
    review_record,
)
from engine.review.mjai import MjaiReviewer
from engine.review.moment import Moment, Reviewer, Valued
from engine.review.report import GRADES, Entry, KyokuReview, Review
from engine.review.strong import StrongReviewer

__all__ = [
    "GRADES",
    "Entry",
    "KyokuReview",
    "MjaiReviewer",
    "Moment",
    "Review",
    "ReviewError",
    "Reviewer",
    "StrongReviewer",
    "Valued",
    "review_document",
    "review_game",
    "review_log",
    "review_record",
]
