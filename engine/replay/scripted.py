"""An action center that answers the engine with a recorded round's decisions.

It never picks for the engine: each inquiry must offer the recorded move (matched by action
type and the tiles' kind and red flag, since the engine offers one option per distinct tile),
or the round fails with the seat, step, move and what was offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, ActionType, MultiPlayerInquiry
from engine.events import EventBase
from engine.replay.record import RoundRecord, Step, StepKind
from engine.rules.kinds import InquiryKind
from engine.rules.tiles import to_str

if TYPE_CHECKING:
    from engine.game.game import Game

_CALL_ACTIONS = {
    StepKind.CHII: ActionType.CHII,
    StepKind.PON: ActionType.PON,
    StepKind.DAIMINKAN: ActionType.DAIMINKAN,
    StepKind.ANKAN: ActionType.ANKAN,
    StepKind.KAKAN: ActionType.KAKAN,
    StepKind.KITA: ActionType.KITA,
}


_CLAIMS = (StepKind.CHII, StepKind.PON, StepKind.DAIMINKAN)
_OWN_TURN = (StepKind.DISCARD, StepKind.ANKAN, StepKind.KAKAN, StepKind.KITA)


class Mismatch(Exception):
    """The engine and the log disagree; the message says where and how."""


class LogCenter:
    """Answers each inquiry with the log's next move (not engine.centers.ScriptedCenter,
    which answers tests from a hand-written script)."""

    wants_events = False

    def __init__(self, record: RoundRecord, red: frozenset[int]) -> None:
        self.record = record
        self.red = red
        self.pos = 0
        self.game: Game | None = None
        #: wins the engine offered and the log passed up (a furiten or yaku bug shows here
        #: first: players almost never decline a win, a riichi player next to never)
        self.declined: list[str] = []

    def on_event(self, seat: int | None, event: EventBase) -> None:
        """Events are not needed: the wall and the answers are the whole script."""

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        if inquiry.kind == InquiryKind.TURN:
            self._turn(inquiry)
        elif inquiry.kind in (InquiryKind.CLAIM, InquiryKind.CHANKAN, InquiryKind.KITA):
            self._claim(inquiry)
        else:
            inquiry.respond_defaults()

    # ---------------------------------------------------------------- helpers

    def sig(self, tiles: tuple[int, ...] | list[int]) -> list[tuple[int, bool]]:
        """Tiles as the engine distinguishes them: kind and red flag."""
        return sorted((t >> 2, t in self.red) for t in tiles)

    def move(self, step: Step) -> str:
        """A step in words: ``riichi 4z``, ``pon 55p`` (own tiles), ``draw 7s``."""
        tiles = to_str(step.own or (step.tile,), self.red)
        name = "riichi" if step.riichi else step.kind.name.lower()
        return f"{name} {tiles}" + (" tsumogiri" if step.tsumogiri else "")

    def show(self, step: Step) -> str:
        return f"seat {step.seat} {self.move(step)}"

    def offered(self, actions: list[Action]) -> str:
        return "; ".join(
            a.type.name + " " + ",".join(to_str(o.tiles, self.red) for o in a.options)
            for a in actions
        )

    def where(self, seat: int) -> str:
        """``seat S turn T (step N)``: T counts the seat's draws and calls so far."""
        turn = sum(
            1
            for s in self.record.steps[: self.pos + 1]
            if s.seat == seat and s.kind in (StepKind.DRAW, *_CLAIMS)
        )
        return f"seat {seat} turn {turn} (step {self.pos})"

    def fail(self, seat: int, what: str, actions: list[Action]) -> Mismatch:
        offered = self.offered(actions) if actions else "nothing"
        return Mismatch(f"{self.where(seat)}: {what} not offered (offered: {offered})")

    def elsewhere(self, seat: int, what: str, step: Step) -> Mismatch:
        return Mismatch(f"{self.where(seat)}: {what}; log: {self.show(step)}")

    def _choose(
        self, inquiry: MultiPlayerInquiry, seat: int, kind: ActionType, own: list[int], what: str
    ) -> None:
        """Answer ``seat`` with action ``kind`` whose option uses tiles like ``own``."""
        single = inquiry.players.get(seat)
        actions = single.actions if single is not None else []
        want = self.sig(own)
        for a_i, action in enumerate(actions):
            if action.type != kind:
                continue
            for o_i, option in enumerate(action.options):
                if not own or self.sig(option.tiles) == want:
                    inquiry.respond(seat, a_i, o_i)
                    return
        raise self.fail(seat, what, actions)

    # ---------------------------------------------------------------- the seat's own turn

    def _turn(self, inquiry: MultiPlayerInquiry) -> None:
        (seat,) = inquiry.players
        steps = self.record.steps
        actions = inquiry.players[seat].actions
        drawn = self.game.players[seat].drawn if self.game is not None else -1
        if self.pos < len(steps) and steps[self.pos].kind == StepKind.DRAW:
            step = steps[self.pos]
            if step.seat != seat or step.tile != drawn:
                raise self.elsewhere(seat, "engine drew", step)
            self.pos += 1
        if self.pos >= len(steps):
            self._turn_end(inquiry, seat, actions)
            return
        step = steps[self.pos]
        if step.seat != seat or step.kind not in _OWN_TURN:
            raise self.elsewhere(seat, "engine asks this seat to act", step)
        if step.kind == StepKind.DISCARD:
            self._discard(inquiry, seat, step, drawn)
        else:
            own = list(step.own) if step.kind == StepKind.ANKAN else [step.tile]
            self._choose(inquiry, seat, _CALL_ACTIONS[step.kind], own, self.move(step))
        self.pos += 1

    def _declined(self, seat: int, what: str) -> None:
        riichi = self.game is not None and self.game.players[seat].riichi
        self.declined.append(
            f"{self.where(seat)}: {what} offered, log passed" + " (riichi)" * riichi
        )

    def _discard(self, inquiry: MultiPlayerInquiry, seat: int, step: Step, drawn: int) -> None:
        if inquiry.players[seat].find(ActionType.TSUMO) >= 0:
            self._declined(seat, "tsumo")
        kind = ActionType.RIICHI if step.riichi else ActionType.DISCARD
        actions = inquiry.players[seat].actions
        want_kind, want_red = step.tile >> 2, step.tile in self.red
        for a_i, action in enumerate(actions):
            if action.type != kind:
                continue
            for o_i, option in enumerate(action.options):
                tile = option.tiles[0]
                if (
                    tile >> 2 == want_kind
                    and (tile in self.red) == want_red
                    and (tile == drawn) == step.tsumogiri
                ):
                    inquiry.respond(seat, a_i, o_i)
                    return
        raise self.fail(seat, self.move(step), actions)

    def _turn_end(self, inquiry: MultiPlayerInquiry, seat: int, actions: list[Action]) -> None:
        """The log's last move: a tsumo or nine terminals, else the log has nothing."""
        end = self.record.end
        if end.kind == "agari" and any(w.tsumo and w.who == seat for w in end.wins):
            self._choose(inquiry, seat, ActionType.TSUMO, [], "tsumo")
        elif end.kind == "kyuushu":
            self._choose(inquiry, seat, ActionType.KYUUSHU, [], "kyuushu")
        else:
            raise Mismatch(
                f"{self.where(seat)}: engine asks this seat to act after the log's last step"
                f" (log: {end.kind}; offered: {self.offered(actions)})"
            )

    # ---------------------------------------------------------------- claims on a tile

    def _claim(self, inquiry: MultiPlayerInquiry) -> None:
        steps = self.record.steps
        end = self.record.end
        answers: list[tuple[int, ActionType, list[int], str]] = []
        at_end = self.pos >= len(steps)
        if at_end and end.kind == "agari":
            last = steps[-1].seat if steps else -1
            answers = [
                (w.who, ActionType.RON, [], "ron")
                for w in end.wins
                if w.from_seat == last and not w.tsumo
            ]
        elif at_end and end.kind == "sanchahou":
            answers = [
                (s, ActionType.RON, [], "ron")
                for s, single in inquiry.players.items()
                if single.find(ActionType.RON) >= 0
            ]
        elif not at_end and steps[self.pos].kind in _CLAIMS:
            step = steps[self.pos]
            if inquiry.kind != InquiryKind.CLAIM:
                raise self.elsewhere(step.seat, "a kan may be robbed here", step)
            answers = [(step.seat, _CALL_ACTIONS[step.kind], list(step.own), self.move(step))]
        for seat, kind, own, what in answers:
            self._choose(inquiry, seat, kind, own, what)
        if answers and not at_end:
            self.pos += 1
        for seat, single in inquiry.players.items():
            if not inquiry.done and single.answer is None:
                if single.find(ActionType.RON) >= 0:
                    self._declined(seat, "ron")
                skip = single.find(ActionType.SKIP)
                inquiry.respond(seat, skip if skip >= 0 else 0)
