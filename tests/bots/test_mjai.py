"""``python -m engine.bot.mjai`` over real pipes: every answer legal, and the same play.

A few hands are played by four strong bots in our engine, exported as god-view mjai with the
engine's writer, and masked per seat (other seats' haipai and draws become "?") as an mjai
host would send them. Each seat's stream goes line by line to its own bot process; every
reaction is checked against that seat's real tiles, and since the log was played by the
same bot from the engine's own seat view, the process should mostly choose the very discard
the log shows (the adapter rebuilt the view faithfully).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.replay.export import to_mjai
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.hand import is_agari, tenpai_discards
from engine.rules.tiles import NUM_KINDS, mjai_kind

ROOT = Path(__file__).resolve().parents[2]
Event = dict[str, Any]


def _game_log(seed: int, hands: int) -> list[Event]:
    center = BotCenter([make("strong") for _ in range(4)])
    game = new_game(TENHOU_HANCHAN, seed, center, max_rounds=hands)
    center.game = game
    run_sync(game)
    return to_mjai(game)


def _masked(ev: Event, seat: int) -> Event:
    kind = ev["type"]
    if kind == "start_game":
        return ev | {"id": seat}
    if kind == "start_kyoku":
        tehais = [t if s == seat else ["?"] * 13 for s, t in enumerate(ev["tehais"])]
        return ev | {"tehais": tehais}
    if kind == "tsumo" and ev["actor"] != seat:
        return ev | {"pai": "?"}
    return ev


class Seat:
    """One seat's real tiles, from the god-view log, to judge its bot's reactions."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand: list[str] = []
        self.pons: set[int] = set()
        self.closed = True
        self.riichi = False
        self.last: Event = {}

    def counts(self, extra: str | None = None) -> list[int]:
        counts = [0] * NUM_KINDS
        for name in [*self.hand, *([extra] if extra else [])]:
            counts[mjai_kind(name)[0]] += 1
        return counts

    def apply(self, ev: Event) -> None:
        kind, me = ev["type"], ev.get("actor") == self.seat
        if kind == "start_kyoku":
            self.hand, self.pons, self.closed, self.riichi = (
                list(ev["tehais"][self.seat]),
                set(),
                True,
                False,
            )
        elif me and kind == "tsumo":
            self.hand.append(ev["pai"])
        elif me and kind == "dahai":
            self.hand.remove(ev["pai"])
        elif me and kind == "reach_accepted":
            self.riichi = True
        elif me and kind in ("chi", "pon", "daiminkan", "ankan", "kakan"):
            for name in ev["consumed"] if kind != "kakan" else [ev["pai"]]:
                self.hand.remove(name)
            self.closed = self.closed and kind == "ankan"
            if kind == "pon":
                self.pons.add(mjai_kind(ev["pai"])[0])
        self.last = ev

    def check(self, ev: Event, answer: Event) -> None:
        """``answer`` (to ``ev``, already applied) is a legal mjai reaction for this seat."""
        kind, mine = ev["type"], ev.get("actor") == self.seat
        must_discard = mine and kind in ("tsumo", "reach", "chi", "pon")
        atype = answer["type"]
        if atype == "none":
            assert not must_discard, (ev, answer)
            return
        assert answer.get("actor") == self.seat, answer
        if atype == "dahai":
            assert must_discard and answer["pai"] in self.hand, (ev, answer, self.hand)
            if self.riichi:
                assert kind == "tsumo" and answer["pai"] == ev["pai"], (ev, answer)
        elif atype == "reach":
            assert kind == "tsumo" and mine and self.closed and not self.riichi
            assert tenpai_discards(self.counts()), self.hand
        elif atype == "hora":
            extra = None if mine else ev["pai"]
            assert kind in ("tsumo", "dahai") and is_agari(self.counts(extra)), (ev, self.hand)
        elif atype in ("pon", "chi"):
            assert kind == "dahai" and not mine and not self.riichi, (ev, answer)
            assert answer["pai"] == ev["pai"] and answer["target"] == ev["actor"]
            rest = list(self.hand)
            for name in answer["consumed"]:
                rest.remove(name)  # raises when the bot offers tiles it does not hold
            kinds = sorted(mjai_kind(n)[0] for n in [*answer["consumed"], ev["pai"]])
            if atype == "pon":
                assert len(set(kinds)) == 1
            else:
                assert ev["actor"] == (self.seat - 1) % 4 and kinds[0] < 27
                assert (
                    kinds == list(range(kinds[0], kinds[0] + 3)) and kinds[0] // 9 == kinds[2] // 9
                )
        elif atype == "ankan":
            assert kind == "tsumo" and mine
            assert len({mjai_kind(n)[0] for n in answer["consumed"]}) == 1
            for name in answer["consumed"]:
                self.hand.count(name)  # names held
            assert (
                sum(1 for n in self.hand if mjai_kind(n)[0] == mjai_kind(answer["consumed"][0])[0])
                == 4
            )
        elif atype == "kakan":
            assert kind == "tsumo" and mine and answer["pai"] in self.hand
            assert mjai_kind(answer["pai"])[0] in self.pons
        else:
            raise AssertionError(f"unknown reaction {answer}")


def _drive(events: list[Event], seat: int) -> tuple[int, int, int]:
    """Feed ``seat``'s stream to a bot process; (answers, discards, same discard as the log)."""
    judge = Seat(seat)
    answers = discards = same = 0
    with subprocess.Popen(
        [sys.executable, "-m", "engine.bot.mjai", "--bot", "strong"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        for i, ev in enumerate(events):
            proc.stdin.write(json.dumps(_masked(ev, seat)) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            answer = json.loads(line)
            judge.apply(ev)
            judge.check(ev, answer)
            answers += answer["type"] != "none"
            if answer["type"] == "dahai":
                discards += 1
                actual = next(e for e in events[i + 1 :] if e.get("actor") == seat)
                same += actual["type"] == "dahai" and actual["pai"] == answer["pai"]
        proc.stdin.close()
        errors = proc.stderr.read()
        assert proc.wait(timeout=30) == 0 and not errors, errors
    return answers, discards, same


def test_the_mjai_process_answers_every_seat_legally_and_plays_as_in_the_engine() -> None:
    events = _game_log(seed=11, hands=4)
    assert sum(e["type"] == "start_kyoku" for e in events) == 4
    totals = [0, 0, 0]
    for seat in range(4):
        for i, n in enumerate(_drive(events, seat)):
            totals[i] += n
    answers, discards, same = totals
    assert answers > 100 and discards > 100
    assert same >= 0.9 * discards, (same, discards)
