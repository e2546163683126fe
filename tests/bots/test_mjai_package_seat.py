"""An mjai.app submission (a ``Bot`` of the ``mjai`` package) plays seats of a real server.

The bot (tests/bots/mjai_package_bot.py) is written on the package's own ``Bot`` class, so
libriichi's ``PlayerState``, not our engine, follows its hand from the events our server
sends and says what it may do; it runs under the package's Python (tests/bots/mjai_venv.py)
as the command of an ``mjai:NAME`` seat (server/seats/mjai_stdio.py). Two such seats and two of
our bots play a whole tonpuusen: no reaction is late, none is illegal or garbled (the
server logs each; a ``Bot`` that cannot follow our events prints its exception and answers
``none``, which is illegal on its own turn), its discards are its own (the default is
tsumogiri), and the record verifies and replays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bots.mjai_venv import package_python
from tests.server.stdio_seats import play_stdio

BOT = Path(__file__).with_name("mjai_package_bot.py")
#: the package's seats and our bots beside them
NAMES = ["mjai:pkg", "strong", "mjai:pkg", "easy"]
#: per decision: the bot answers in milliseconds, and the claim is that it is never late; a
#: loaded 2-core machine can stall its start (the package's imports) for seconds
TIMEOUT_S = 60.0
#: what server/seats/mjai_stdio.py and server/seats/mjai_seat.py log for a seat's faults, and
#: what the package's ``Bot.react`` prints when it cannot follow an event
FAULTS = (
    "no legal choice",
    "no reaction within",
    "restarted",
    "is gone",
    "could not start",
    "plays the defaults",
    "Traceback",
    "Exception:",
)


def _play(tmp_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], str, int]:
    """One all-bot tonpuusen with the package's bot in two seats: (the JSON record, its
    mjai log's events, the server's log, the most seat processes at once)."""
    command = [str(package_python()), str(BOT)]
    game = play_stdio(tmp_path, {"pkg": command}, NAMES, TIMEOUT_S)
    return game.record, game.events, game.log, game.most


def test_an_mjai_app_submission_bot_plays_two_seats_to_the_end(tmp_path: Path) -> None:
    record, events, log, most = _play(tmp_path)
    assert record["status"] == "finished"
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert most == 2  # one process per package seat
    for bad in FAULTS:
        assert bad not in log, log[-3000:]
    # the seats the seed's draw gave the package's places (engine/rules/bagime.py)
    seats = [record["draw"][i] for i, name in enumerate(NAMES) if name.startswith("mjai:")]
    summary = {}
    for seat in seats:
        decisions = [d for d in record["decisions"] if d[1] == seat]
        assert len(decisions) > 20 and not any(d[4] for d in decisions)  # never timed out
        mine = [e for e in events if e.get("actor") == seat]
        discards = [e for e in mine if e["type"] == "dahai"]
        own = [e for e in discards if not e["tsumogiri"]]  # the default would be tsumogiri
        summary[seat] = {
            "discards": len(discards),
            "not tsumogiri": len(own),
            "riichi": sum(e["type"] == "reach" for e in mine),
            "wins": sum(e["type"] == "hora" for e in mine),
            "calls": sum(e["type"] in ("chi", "pon", "daiminkan", "kakan") for e in mine),
        }
        assert len(discards) > 15 and len(own) >= len(discards) // 4, summary
        assert summary[seat]["calls"] == 0, summary  # it passes every call
    print(json.dumps({"seats": summary, "result": record["result"]}))
