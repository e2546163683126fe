"""Sanma at the table (Tenhou's 3-player rules): kita and its replacement draw, a ron on a
kita'd North, no chii, tsumo loss with 200-point honba, noten 2000, no abort on three
riichi, and random games that keep every invariant and replay through the checker."""

from __future__ import annotations

import json

import pytest

from engine import view
from engine.actions import ActionType as A
from engine.centers import RandomCenter, ScriptedCenter
from engine.driver import run_sync
from engine.events import AFTER, EventBase, late
from engine.game import RoundStart, new_game
from engine.game.events import Kita
from engine.replay.check import check_game
from engine.replay.export import to_tenhou
from engine.replay.tenhou_read import read_game
from engine.rules.config import PRESETS, TENHOU_SANMA_HANCHAN, TENHOU_SANMA_TONPUU
from engine.rules.meld import MeldType
from tests.engine.table import BotCenter, check_invariants, events, make_wall, play

SANMA = TENHOU_SANMA_HANCHAN
START = RoundStart(0, 0, 0, (35000,) * 3)


def test_kita_sets_a_north_aside_draws_a_replacement_and_counts_as_dora() -> None:
    hands = ["123p456p789s1z4z55s", "999m111p999p22z33z", "111m777s888s55z66z"]
    wall = make_wall(hands, draws="1z", rinshan="5s", dora="6z", rules=SANMA)
    start = RoundStart(0, 1, 0, (35000,) * 3)
    game, center = play([wall], [(0, A.KITA), (0, A.TSUMO)], rules=SANMA, start=start)
    kita = events(center, "Kita")[0]
    assert kita.seat == 0 and kita.meld.type == MeldType.KITA
    names = [type(e).__name__ for e in center.seen(None)]
    assert names[names.index("Kita") + 1] == "Draw"
    win = events(center, "Agari")[0].wins[0]
    assert {y.name for y in win.result.yaku} == {"rinshan", "menzen_tsumo", "dora"}
    assert win.result.kita == 1 and win.result.han == 3 and win.result.fu == 30
    # tsumo loss: the two others pay a dealer tsumo's share each, honba 100 each
    assert game.rounds[0].deltas == (4200, -2100, -2100)


def test_a_kita_d_north_can_be_ronned_without_chankan() -> None:
    hands = ["123p456p789s1z4z55s", "555z666z123p789p4z", "111m777s888s22z33z"]
    wall = make_wall(hands, draws="7z", rules=SANMA)
    game, center = play([wall], [(0, A.KITA), (1, A.RON)], rules=SANMA, start=START)
    agari = events(center, "Agari")[0]
    assert agari.winners == (1,) and agari.from_seat == 0 and agari.tile >> 2 == 30
    assert not agari.chankan
    names = {y.name for y in agari.wins[0].result.yaku}
    assert {"yakuhai_haku", "yakuhai_hatsu"} <= names and "chankan" not in names
    ron = agari.wins[0].result.ron
    assert game.rounds[0].deltas == (-ron, ron, 0)


def test_sanma_offers_no_chii_but_pon() -> None:
    hands = ["19m19p19s1234567z", "45p999m111s222z33z", "33p999s111p555z66z"]
    wall = make_wall(hands, draws="3p", rules=SANMA)
    _, center = play([wall], rules=SANMA, start=START)
    claim = next(q for q in center.inquiries if q.kind == "claim")
    offered = {(s, a.type) for s, p in claim.players.items() for a in p.actions}
    assert (2, A.PON) in offered
    assert not any(
        a.type == A.CHII for q in center.inquiries for p in q.players.values() for a in p.actions
    )


def test_noten_payments_total_two_thousand() -> None:
    hands = ["999m111p999p22z33z", "1m9m1p3p5p7p1s3s5s7s1z3z5z", "2p4p6p8p2s4s6s8s2z6z7z9s1m"]
    game, _ = play([make_wall(hands, rules=SANMA)], rules=SANMA, start=START)
    assert game.rounds[0].kind == "exhaustive" and game.rounds[0].tenpai == (0,)
    assert game.rounds[0].deltas == (2000, -1000, -1000)


def test_three_riichi_do_not_abort() -> None:
    hands = ["123p456p789s11z55s", "999m111p999p22z33z", "111m777s888s55z66z"]
    wall = make_wall(hands, draws="7z7z7z", rules=SANMA)
    script = [(0, A.RIICHI, "7z"), (1, A.RIICHI, "7z"), (2, A.RIICHI, "7z")]
    game, center = play([wall], script, rules=SANMA, start=START)
    assert len(events(center, "RiichiAccepted")) == 3
    assert game.rounds[0].kind == "exhaustive" and game.rounds[0].tenpai == (0, 1, 2)


def test_the_lobby_lists_the_sanma_presets() -> None:
    assert PRESETS["tenhou-sanma-hanchan"] == SANMA
    assert PRESETS["tenhou-sanma-tonpuu"].winds == 1
    assert (SANMA.tenpai_payment, SANMA.honba_value, SANMA.uma) == (2000, 200, (20, 0, -20))


@pytest.mark.parametrize("seed", range(6))
def test_random_sanma_games_keep_the_invariants_and_replay_exactly(seed: int) -> None:
    game = new_game(TENHOU_SANMA_TONPUU, seed, RandomCenter(seed))
    game.bus.subscribe(EventBase, check_invariants, late(AFTER))
    run_sync(game)
    assert game.over and sum(game.scores) == 105000
    log = json.loads(json.dumps(to_tenhou(game), ensure_ascii=False))
    record = read_game(log)
    assert record.rules == TENHOU_SANMA_TONPUU
    bad = [v for v in check_game(record) if not v.matched]
    assert not bad, bad
    assert check_game(record)[-1].final


def test_bots_play_a_sanma_hanchan_to_the_end_with_kita() -> None:
    center = BotCenter()
    game = new_game(SANMA, 7, center)
    center.game = game
    kita: list[int] = []
    game.bus.subscribe(Kita, lambda ev: kita.append(ev.seat), AFTER)
    game.bus.subscribe(EventBase, check_invariants, late(AFTER))
    run_sync(game)
    assert game.over and kita
    assert all(r.kind != "suucha_riichi" for r in game.rounds)


def test_the_seat_views_show_a_kita_to_every_seat_and_no_hand() -> None:
    """A reconnecting seat's snapshot (engine.view) counts the Norths set aside, which every
    seat may see, while the hands stay their owners' alone."""
    hands = ["123p456p789s1z4z55s", "999m111p999p22z33z", "111m777s888s55z66z"]
    wall = make_wall(hands, draws="1z", rinshan="5s", dora="6z", rules=SANMA)
    center = ScriptedCenter([(0, A.KITA), (0, A.TSUMO)])
    game = new_game(SANMA, 0, center, start=START, walls=lambda i: wall, max_rounds=1)
    seen: list[tuple[view.TableView, view.TableView]] = []
    game.bus.subscribe(
        Kita, lambda ev: seen.append((view.snapshot(game, 0), view.snapshot(game, 1))), late(AFTER)
    )
    run_sync(game)
    own, other = seen[0]
    assert len(own.players) == len(other.players) == 3
    for snap in (own, other):
        assert snap.players[0].kita == 1
        assert [m.type for m in snap.players[0].melds] == [MeldType.KITA]
    assert own.players[0].hand is not None and other.players[0].hand is None
    assert other.players[1].hand is not None and own.players[1].hand is None
    assert all(p.kita == 0 for p in own.players[1:])
