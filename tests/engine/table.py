"""A table script for scenario tests: explicit hands, draws and dora, scripted answers, and
invariants checked after every event."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.actions import ActionType, MultiPlayerInquiry
from engine.bot import choose
from engine.centers import RandomCenter, Script, ScriptedCenter
from engine.driver import run_sync
from engine.events import AFTER, EventBase, late
from engine.game import Game, RoundStart, new_game
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.meld import MeldType
from engine.rules.tiles import NUM_TILES, SANMA_REMOVED, kind_to_str, parse_kinds, to_counts
from engine.rules.wall import SANMA_EXTRA, Wall


class Tiles:
    """Hands out distinct physical ids for mpsz text (0 = the red five)."""

    def __init__(self, red: frozenset[int]) -> None:
        self.red = red
        self.used: set[int] = set()

    def take(self, text: str) -> list[int]:
        out = []
        for k, is_red in parse_kinds(text):
            free = [
                t
                for t in range(k * 4, k * 4 + 4)
                if t not in self.used and (t in self.red) == is_red
            ]
            if not free:
                raise ValueError(f"no {kind_to_str(k)} left for {text!r}")
            t = free[0]
            self.used.add(t)
            out.append(t)
        return out

    def rest(self, sanma: bool = False) -> list[int]:
        return [
            t
            for t in range(NUM_TILES)
            if t not in self.used and not (sanma and t >> 2 in SANMA_REMOVED)
        ]


def make_wall(
    hands: list[str],
    draws: str = "",
    dora: str = "",
    rinshan: str = "",
    dealer: int = 0,
    rules: RuleConfig = TENHOU_HANCHAN,
    last: str = "",
) -> Wall:
    """Hands by seat (three in sanma), then the live draws in order; unused tiles fill the
    rest of the wall (winds and dragons last, so filler rarely makes a hand); ``last`` ends
    the live wall."""
    tiles = Tiles(rules.red)
    by_seat = [tiles.take(h) for h in hands]
    assert all(len(h) == 13 for h in by_seat), [len(h) for h in by_seat]
    drawn = tiles.take(draws)
    dora_ids = tiles.take(dora)
    rinshan_ids = tiles.take(rinshan)
    last_ids = tiles.take(last)
    rest = tiles.rest(rules.sanma)
    dead = rest[len(rest) - (14 - len(dora_ids) - len(rinshan_ids)) :]
    filler = rest[: len(rest) - len(dead)]
    rinshan_ids += [dead.pop() for _ in range(4 - len(rinshan_ids))]
    dora_ids += [dead.pop() for _ in range(5 - len(dora_ids))]
    ura = [dead.pop() for _ in range(5)]
    live: list[int] = []
    n = len(hands)
    for i in range(n):
        live += by_seat[(dealer + i) % n]
    live += drawn + filler + last_ids
    return Wall(live, rinshan_ids, dora_ids, ura, SANMA_EXTRA if rules.sanma else 0)


def check_invariants(ev: EventBase) -> None:
    """Every tile conserved (136, sanma 108), hand sizes, wall counts, points conserved."""
    game = ev.game  # every event, Terminate too: EventBase knows no game type
    assert isinstance(game, Game)
    if not game.wall.live:
        return
    wall = game.wall
    seen: list[int] = []
    called = kita = 0
    for p in game.players:
        seen += p.hand
        seen += p.river
        for m in p.melds:
            seen += m.tiles
            called += m.called >= 0
            kita += m.type == MeldType.KITA
        assert p.counts == to_counts(p.hand)
        groups = sum(1 for m in p.melds if m.type != MeldType.KITA)
        assert len(p.hand) + 3 * groups in (13, 14), (p.seat, len(p.hand), groups)
    seen += wall.live[wall.pos : wall.live_end]
    seen += wall.live[wall.live_end :]
    seen += wall.rinshan[wall.rinshan_pos :]
    seen += wall.dora + wall.ura
    # replacement draws past the rinshan list come from the tiles the live wall gave up
    given_up = max(0, wall.rinshan_pos - len(wall.rinshan))
    total = NUM_TILES - 28 * game.rules.sanma
    assert len(seen) - called - given_up == total, (len(seen), called, given_up)
    assert len(set(seen)) == total
    assert wall.remaining >= 0
    replaced = len(game.round.kan_seats) + kita
    assert wall.rinshan_pos <= replaced <= wall.rinshan_pos + 1
    points = sum(game.scores) + 1000 * game.kyotaku
    assert points == game.rules.start_points * game.n, (game.scores, game.kyotaku)


def play(
    walls: list[Wall],
    script: Iterable[Script] = (),
    rules: RuleConfig = TENHOU_HANCHAN,
    start: RoundStart | None = None,
    max_rounds: int | None = 1,
) -> tuple[Game, ScriptedCenter]:
    """Play the scripted hands (walls by hand index) with invariants after every event."""
    center = ScriptedCenter(script)
    game = new_game(
        rules,
        0,
        center,
        start=start,
        walls=(lambda i: walls[i]) if walls else None,
        max_rounds=max_rounds,
    )
    game.bus.subscribe(EventBase, check_invariants, late(AFTER))
    run_sync(game)
    return game, center


def events(center: ScriptedCenter, kind: str, seat: int | None = None) -> list[Any]:
    return [e for e in center.seen(seat) if type(e).__name__ == kind]


#: hands for seats 0, 2 and 3 of a pao scenario: they only discard (seat 2 feeds the dragons)
PAO_QUIET = ("111m999m111p999p1s", "2345m2345p2345s8m", "678m678p678s4s5m5p3s")


def pao_dragon_script(win: ActionType) -> list[Script]:
    """Seat 1 pons haku, hatsu and chun as they are fed, discarding 1s, 2s and 3s, then wins."""
    script: list[Script] = []
    for tile in ("1s", "2s", "3s"):
        script += [(1, ActionType.PON), (1, ActionType.DISCARD, tile)]
    return [*script, (1, win)]


class BotCenter(RandomCenter):
    """Every seat played by engine.bot, as the server's bots play."""

    def __init__(self) -> None:
        super().__init__(0)
        self.game: Game | None = None

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        assert self.game is not None
        for seat in sorted(inquiry.players):
            if not inquiry.done:
                actions = inquiry.players[seat].actions
                inquiry.respond(seat, *choose(actions, self.game.players[seat].hand))


class Holding:
    """A center that only collects the inquiries; the test (or another task) answers them,
    as the server's table does."""

    wants_events = False

    def __init__(self) -> None:
        self.open: list[MultiPlayerInquiry] = []

    def on_event(self, seat: int | None, event: EventBase) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.open.append(inquiry)
