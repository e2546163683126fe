"""An action center that answers the engine with a recorded round's decisions.

It never picks for the engine: each inquiry must offer the recorded move (matched by action
type and the tiles' kind and red flag, since the engine offers one option per distinct tile),
or the round fails with the seat, step, move and what was offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action, ActionType, MultiPlayerInquiry
from engine.replay.record import RoundRecord, Step, StepKind
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


class Mismatch(Exception):
    """The engine and the log disagree; the message says where and how."""


class ScriptedCenter:
    wants_events = False

    def __init__(self, record: RoundRecord, red: frozenset[int]) -> None:
        self.record = record
        self.red = red
        self.pos = 0
        self.game: Game | None = None

    def on_event(self, seat: int | None, event: Any) -> None:
        """Events are not needed: the wall and the answers are the whole script."""

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        if inquiry.kind == "turn":
            self._turn(inquiry)
        elif inquiry.kind in ("claim", "chankan"):
            self._claim(inquiry)
        else:
            inquiry.respond_defaults()

    # ---------------------------------------------------------------- helpers

    def sig(self, tiles: tuple[int, ...] | list[int]) -> list[tuple[int, bool]]:
        """Tiles as the engine distinguishes them: kind and red flag."""
        return sorted((t >> 2, t in self.red) for t in tiles)

    def show(self, step: Step) -> str:
        tiles = to_str(step.own or (step.tile,), self.red)
        riichi = " riichi" if step.riichi else ""
        return f"seat {step.seat} {step.kind.name.lower()}{riichi} {tiles}"

    def offered(self, actions: list[Action]) -> str:
        return "; ".join(
            a.type.name + " " + ",".join(to_str(o.tiles, self.red) for o in a.options)
            for a in actions
        )

    def fail(self, seat: int, what: str, actions: list[Action]) -> Mismatch:
        where = f"seat {seat} step {self.pos}"
        return Mismatch(f"{where}: {what} not offered (offered: {self.offered(actions)})")

    def elsewhere(self, what: str, step: Step) -> Mismatch:
        return Mismatch(f"step {self.pos}: {what}; log: {self.show(step)}")

    def _choose(
        self, inquiry: MultiPlayerInquiry, seat: int, kind: ActionType, own: list[int], what: str
    ) -> None:
        """Answer ``seat`` with action ``kind`` whose option uses tiles like ``own``."""
        actions = inquiry.players[seat].actions
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
            if step.seat != seat or self.sig([step.tile]) != self.sig([drawn]):
                raise Mismatch(
                    f"step {self.pos}: engine drew for seat {seat}, log: {self.show(step)}"
                )
            self.pos += 1
        if self.pos >= len(steps):
            self._turn_end(inquiry, seat, actions)
            return
        step = steps[self.pos]
        if step.seat != seat:
            raise Mismatch(
                f"step {self.pos}: engine asks seat {seat} to act, log: {self.show(step)}"
            )
        self.pos += 1
        if step.kind == StepKind.DISCARD:
            self._discard(inquiry, seat, step, drawn)
        elif step.kind in (StepKind.ANKAN, StepKind.KAKAN, StepKind.KITA):
            own = list(step.own) if step.kind == StepKind.ANKAN else [step.tile]
            self._choose(inquiry, seat, _CALL_ACTIONS[step.kind], own, self.show(step))
        else:
            raise Mismatch(
                f"step {self.pos - 1}: engine asks seat {seat} to act, log: {self.show(step)}"
            )

    def _discard(self, inquiry: MultiPlayerInquiry, seat: int, step: Step, drawn: int) -> None:
        kind = ActionType.RIICHI if step.riichi else ActionType.DISCARD
        actions = inquiry.players[seat].actions
        want = self.sig([step.tile])
        for a_i, action in enumerate(actions):
            if action.type != kind:
                continue
            for o_i, option in enumerate(action.options):
                tile = option.tiles[0]
                if self.sig([tile]) == want and (tile == drawn) == step.tsumogiri:
                    inquiry.respond(seat, a_i, o_i)
                    return
        raise self.fail(seat, self.show(step) + (" tsumogiri" if step.tsumogiri else ""), actions)

    def _turn_end(self, inquiry: MultiPlayerInquiry, seat: int, actions: list[Action]) -> None:
        """The log's last move: a tsumo or nine terminals, else the log has nothing."""
        end = self.record.end
        if end.kind == "win" and any(w.tsumo and w.who == seat for w in end.wins):
            self._choose(inquiry, seat, ActionType.TSUMO, [], f"seat {seat} tsumo")
        elif end.kind == "kyuushu":
            self._choose(inquiry, seat, ActionType.KYUUSHU, [], f"seat {seat} kyuushu")
        else:
            raise Mismatch(f"engine asks seat {seat} to act after the log's last step ({end.kind})")

    # ---------------------------------------------------------------- claims on a tile

    def _claim(self, inquiry: MultiPlayerInquiry) -> None:
        steps = self.record.steps
        end = self.record.end
        answers: list[tuple[int, ActionType, list[int], str]] = []
        if self.pos >= len(steps) and end.kind == "win":
            last = steps[-1].seat if steps else -1
            answers = [
                (w.who, ActionType.RON, [], f"seat {w.who} ron")
                for w in end.wins
                if w.from_seat == last and not w.tsumo
            ]
        elif self.pos >= len(steps) and end.kind == "sanchahou":
            answers = [
                (s, ActionType.RON, [], f"seat {s} ron")
                for s, single in inquiry.players.items()
                if single.find(ActionType.RON) >= 0
            ]
        elif self.pos < len(steps) and steps[self.pos].kind in (
            StepKind.CHII,
            StepKind.PON,
            StepKind.DAIMINKAN,
        ):
            step = steps[self.pos]
            if inquiry.kind != "claim" or step.seat not in inquiry.players:
                raise Mismatch(f"step {self.pos}: {self.show(step)} not offered")
            answers = [(step.seat, _CALL_ACTIONS[step.kind], list(step.own), self.show(step))]
            self.pos += 1
        for seat, kind, own, what in answers:
            if seat not in inquiry.players:
                raise Mismatch(f"step {self.pos}: {what} not offered (nothing offered)")
            self._choose(inquiry, seat, kind, own, what)
        for seat, single in inquiry.players.items():
            if not inquiry.done and single.answer is None:
                skip = single.find(ActionType.SKIP)
                inquiry.respond(seat, skip if skip >= 0 else 0)
