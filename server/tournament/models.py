"""What the tournament API takes and answers (docs/protocol.md, "Tournaments"), and the
checks a new tournament's options pass before anything is stored."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.rules.config import PRESETS
from server.tournament.standings import Standing

#: rounds a tournament may have, at most (one game per table per round)
MAX_ROUNDS = 32
#: a tournament's name, at most (characters)
MAX_NAME = 64
STATES = ("registering", "running", "finished")
#: a table's status: waiting for a node to seat it, its game running, its game over
TABLE_STATUSES = ("pending", "claimed", "playing", "finished", "aborted")


class NewTournament(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    preset: str
    rounds: int
    seating: Literal["balanced", "swiss"]
    duplicate: bool
    fill: Literal["none", "bots"]
    base_s: float | None = None
    bank_s: float | None = None


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    """A write with nothing to say (``{}``)."""


class Organizer(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class NewPenalty(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    points: float
    reason: str


class Substitute(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class BadTournament(ValueError):
    """Why the options cannot make a tournament (``400 bad_tournament``)."""


def check(body: NewTournament, base_s: float, bank_s: float) -> NewTournament:
    """``body`` with its clock filled in (the server's defaults), or BadTournament."""
    name = body.name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise BadTournament(f"a name has 1 to {MAX_NAME} characters")
    if body.preset not in PRESETS:
        raise BadTournament(f"unknown preset {body.preset!r}; one of {sorted(PRESETS)}")
    if not 1 <= body.rounds <= MAX_ROUNDS:
        raise BadTournament(f"rounds must be 1..{MAX_ROUNDS}")
    base = base_s if body.base_s is None else body.base_s
    bank = bank_s if body.bank_s is None else body.bank_s
    if not (0 <= base <= 300 and 0 <= bank <= 3600):
        raise BadTournament("base_s must be 0..300 and bank_s 0..3600")
    return msgspec.structs.replace(body, name=name, base_s=base, bank_s=bank)


class Table(msgspec.Struct):
    """One table of one round, as the API shows it."""

    round: int
    table: int
    game: str | None
    code: str | None
    #: names by seat (the entrants in their planned order until the table is seated)
    seats: list[str]
    status: str
    #: match points by seat once the game finished (the preset's own result), else null
    points: list[float] | None
    #: the commitment to the table's shuffle (the round's, with duplicate walls)
    commitment: str | None


class Penalty(msgspec.Struct):
    name: str
    points: float
    reason: str
    at: float
    by: str


class Tournament(msgspec.Struct):
    id: str
    name: str
    preset: str
    rounds: int
    round: int
    state: str
    seating: str
    duplicate: bool
    entries: list[str]
    tables: list[Table]
    standings: list[Standing]
    fill: str = "none"
    base_s: float = 0.0
    bank_s: float = 0.0
    players: int = 4
    bots: list[str] = msgspec.field(default_factory=list)
    penalties: list[Penalty] = msgspec.field(default_factory=list)
    organizers: list[str] = msgspec.field(default_factory=list)
    #: the round seeds revealed so far (duplicate walls), by round number as text
    seeds: dict[str, str] = msgspec.field(default_factory=dict)


class Summary(msgspec.Struct):
    id: str
    name: str
    preset: str
    rounds: int
    round: int
    state: str
    seating: str
    duplicate: bool
    fill: str
    entrants: int


def summary(row: tuple[Any, ...], entrants: int) -> Summary:
    return Summary(
        row[0],
        row[1],
        row[2],
        int(row[3]),
        int(row[10]),
        row[9],
        row[4],
        bool(row[5]),
        row[6],
        entrants,
    )
