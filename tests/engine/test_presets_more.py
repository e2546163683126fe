"""Mahjong Soul's ranked sanma preset and M-League's tenpai declaration at the table, and a
check that every RuleConfig switch is read by the engine and exercised by some scenario
(docs/rules.md lists the presets with sources)."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable
from pathlib import Path

import msgspec
import pytest

from engine.actions import ActionType as A
from engine.actions import MultiPlayerInquiry
from engine.bot import make, seat_view
from engine.centers import BotCenter, Script, ScriptedCenter
from engine.driver import run_sync
from engine.env import NO_RIICHI, PASS, MahjongEnv
from engine.events import AFTER, EventBase, late
from engine.game import Game, RoundStart, new_game
from engine.replay.export import to_tenhou
from engine.replay.tenhou_read import read_game
from engine.replay.verify import verify_record, verify_tenhou
from engine.rules.config import (
    LABELS,
    MAHJONGSOUL_SANMA,
    MLEAGUE,
    PRESETS,
    TENHOU_HANCHAN,
    TENHOU_SANMA_HANCHAN,
    RuleConfig,
)
from engine.rules.scoring.points import placement_points
from tests.engine.table import check_invariants, events, make_wall, play
from tests.replay.server_record import server_record

MS3 = MAHJONGSOUL_SANMA
T3 = TENHOU_SANMA_HANCHAN
START3 = RoundStart(0, 0, 0, (35000,) * 3)
#: a sanma dealer hand waiting on 1z/5s with a North (4z) to set aside
NORTH_HAND = "123p456p789s1z4z55s"
QUIET3 = ("999m111p999p22z33z", "111m777s888s55z66z")
NOTEN4 = ["1357m1357p1357s1z", "2468m2468p2468s2z", "1357m1357p1357s3z", "2468m2468p2468s4z"]

# ---------------------------------------------------------------- Mahjong Soul sanma


def test_the_lobby_offers_mahjong_soul_sanma() -> None:
    assert PRESETS["mahjongsoul-sanma"] is MS3
    assert LABELS["mahjongsoul-sanma"] == "Mahjong Soul 3p hanchan (雀魂三麻)"
    assert MS3.players == 3 and MS3.winds == 2
    # Mahjong Soul's matchmode table: init_point 35,000, back_point 40,000 (to end the
    # match), count_point 35,000 (results count from the start: no oka)
    assert (MS3.start_points, MS3.target_points, MS3.oka) == (35000, 40000, False)


def test_mahjong_soul_sanma_tsumo_loses_the_north_share_and_pays_honba_100_each() -> None:
    # a dealer's rinshan tsumo on a kita replacement with one honba: 2000 + 100 from each
    wall = make_wall([NORTH_HAND, *QUIET3], draws="1z", rinshan="5s", dora="6z", rules=MS3)
    start = RoundStart(0, 1, 0, (35000,) * 3)
    game, _ = play([wall], [(0, A.KITA), (0, A.TSUMO)], rules=MS3, start=start)
    assert game.rounds[0].deltas == (4200, -2100, -2100)


def test_mahjong_soul_sanma_pays_noten_2000_in_all() -> None:
    hands = [QUIET3[0], "1m9m1p3p5p7p1s3s5s7s1z3z5z", "2p4p6p8p2s4s6s8s2z6z7z9s1m"]
    game, _ = play([make_wall(hands, rules=MS3)], rules=MS3, start=START3)
    assert game.rounds[0].tenpai == (0,) and game.rounds[0].deltas == (2000, -1000, -1000)


def test_mahjong_soul_sanma_uma_is_15_0_minus_15_from_the_start_exact() -> None:
    # (score - 35,000) / 1000 + uma (riichi.wiki Majsoul's PtsGain without the rank points)
    scores = (45300, 35000, 24700)
    assert placement_points(scores, T3) == (40.0, -5.0, -35.0)
    assert placement_points(scores, MS3) == (25.3, 0.0, -25.3)


def _kokushi_13_ron(rules: RuleConfig) -> tuple[int, ...]:
    hands = [QUIET3[0], "19m19p19s1234567z", "234p567p777s888s6s"]
    wall = make_wall(hands, draws="1m", rules=rules)
    game, _ = play([wall], [(1, A.RON)], rules=rules, start=START3)
    return game.rounds[0].deltas


def test_mahjong_soul_sanma_pays_a_13_sided_kokushi_as_double_yakuman() -> None:
    assert _kokushi_13_ron(T3) == (-32000, 32000, 0)
    assert _kokushi_13_ron(MS3) == (-64000, 64000, 0)


def test_mahjong_soul_sanma_kokushi_robs_a_closed_kan() -> None:
    hands = ["1111z123p567p23s6s", "119m19p19s234567z", "234p678p345s789s9s"]
    for rules, robbed in ((T3, False), (MS3, True)):
        wall = make_wall(hands, draws="8s", rules=rules)
        _, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.RON)], rules=rules, start=START3)
        agari = events(center, "Agari")
        assert bool(agari and agari[0].chankan) == robbed


def _ippatsu_after(kita: bool) -> bool:
    """The dealer riichis, seat 1 draws a North (and sets it aside if ``kita``), the dealer
    tsumos on the next draw."""
    wall = make_wall(["123p456p789s11z55s", *QUIET3], draws="7z4z2p5s", rinshan="8p", rules=MS3)
    script: list[Script] = [(0, A.RIICHI, "7z"), *([(1, A.KITA)] if kita else []), (0, A.TSUMO)]
    _, center = play([wall], script, rules=MS3, start=START3)
    assert len(events(center, "Kita")) == kita
    win = events(center, "Agari")[0].wins[0]
    return "ippatsu" in {y.name for y in win.result.yaku}


def test_mahjong_soul_sanma_kita_cancels_ippatsu() -> None:
    assert _ippatsu_after(kita=False)
    assert not _ippatsu_after(kita=True)


def _kyuushu_offered(kita: bool) -> bool:
    """Seat 1 holds eleven kinds of terminals and honours on its first draw; the dealer set
    a North aside before it (if ``kita``)."""
    hands = [NORTH_HAND, "19m19p19s12356z2p3p", "234p567p777s888s6s"]
    wall = make_wall(hands, draws="8p9s", rinshan="8p", rules=MS3)
    _, center = play([wall], [(0, A.KITA)] if kita else [], rules=MS3, start=START3)
    turns = [q for q in center.inquiries if q.kind == "turn" and 1 in q.players]
    return turns[0].players[1].find(A.KYUUSHU) >= 0


def test_mahjong_soul_sanma_kita_cancels_kyuushu() -> None:
    assert _kyuushu_offered(kita=False)
    assert not _kyuushu_offered(kita=True)


def test_mahjong_soul_sanma_has_no_three_riichi_abort() -> None:
    hands = ["123p456p789s11z55s", *QUIET3]
    wall = make_wall(hands, draws="7z7z7z", rules=MS3)
    script: list[Script] = [(0, A.RIICHI, "7z"), (1, A.RIICHI, "7z"), (2, A.RIICHI, "7z")]
    game, center = play([wall], script, rules=MS3, start=START3)
    assert len(events(center, "RiichiAccepted")) == 3
    assert game.rounds[0].kind == "exhaustive"


def test_mahjong_soul_sanma_north_can_be_ronned_without_chankan() -> None:
    hands = [NORTH_HAND, "555z666z123p789p4z", "111m777s888s22z33z"]
    wall = make_wall(hands, draws="7z", rules=MS3)
    _, center = play([wall], [(0, A.KITA), (1, A.RON)], rules=MS3, start=START3)
    agari = events(center, "Agari")[0]
    assert agari.winners == (1,) and not agari.chankan
    assert "chankan" not in {y.name for y in agari.wins[0].result.yaku}


# ---------------------------------------------------------------- M-League tenpai declaration

#: the dealer and seat 1 tenpai (2z/3z and 4z/6z shanpon), seats 2 and 3 noten
DECLARE = [
    "777m444p777s22z33z",
    "888m111p222s44z66z",
    "1357m1357p1357s3z",
    "2468m2468p2468s4z",
]


def _declared(script: list[Script], rules: RuleConfig = MLEAGUE) -> tuple[Game, ScriptedCenter]:
    walls = [make_wall(DECLARE), make_wall(NOTEN4)]
    return play(walls, script, rules=rules, max_rounds=2)


#: a seed whose M-League match of easy bots has a tenpai non-dealer at an exhaustive draw
SEED_WITH_NOTEN = 4


def _declarations(center: ScriptedCenter) -> list[MultiPlayerInquiry]:
    return [q for q in center.inquiries if q.kind == "declaration"]


def test_m_league_a_tenpai_seat_declaring_noten_pays_as_noten() -> None:
    game, center = _declared([(1, A.NOTENPAI)])
    (asked,) = _declarations(center)
    assert sorted(asked.players) == [0, 1]
    first = game.rounds[0]
    assert first.kind == "exhaustive" and first.tenpai == (0,)
    assert first.deltas == (3000, -1000, -1000, -1000)
    draw = events(center, "Ryuukyoku")[0]
    assert draw.hands[0] is not None and draw.hands[1] is None  # a noten hand stays hidden
    assert game.rounds[1].kyoku == 0  # the tenpai dealer keeps the deal


def test_m_league_a_dealer_declaring_noten_loses_the_deal() -> None:
    game, _ = _declared([(0, A.NOTENPAI)])
    first = game.rounds[0]
    assert first.tenpai == (1,) and first.deltas == (-1000, 3000, -1000, -1000)
    assert (game.rounds[1].kyoku, game.rounds[1].honba) == (1, 1)


def test_without_the_switch_nobody_is_asked_and_every_tenpai_seat_is_paid() -> None:
    game, center = _declared([(1, A.NOTENPAI)], rules=TENHOU_HANCHAN)
    assert not _declarations(center)
    assert game.rounds[0].tenpai == (0, 1) and game.rounds[0].deltas == (1500, 1500, -1500, -1500)


def test_a_timed_out_declaration_declares_tenpai() -> None:
    game, center = _declared([])
    (asked,) = _declarations(center)
    for single in asked.players.values():
        action, option = single.default()
        assert single.actions[action].type == A.TENPAI and option == 0
    assert game.rounds[0].tenpai == (0, 1)


def test_a_riichi_seat_is_tenpai_without_being_asked() -> None:
    walls = [make_wall(DECLARE, draws="1z1z"), make_wall(NOTEN4)]
    game, center = play(walls, [(1, A.RIICHI, "1z"), (1, A.NOTENPAI)], rules=MLEAGUE, max_rounds=2)
    (asked,) = _declarations(center)
    assert sorted(asked.players) == [0]
    assert game.rounds[0].tenpai == (0, 1)


@pytest.mark.parametrize("name", ["easy", "strong"])
def test_the_bots_declare_tenpai(name: str) -> None:
    """The hands are played out by the script (tsumogiri); the declaration goes to the bot."""
    bot = make(name)
    center = ScriptedCenter()
    wall = make_wall(DECLARE)
    game = new_game(MLEAGUE, 0, center, walls=lambda i: wall, max_rounds=1)

    def declare(inquiry: MultiPlayerInquiry) -> None:
        if inquiry.kind == "declaration":
            for seat, single in list(inquiry.players.items()):
                inquiry.respond(seat, *bot.choose(single, seat_view(game, seat)))

    center.hook = declare
    run_sync(game)
    (asked,) = _declarations(center)
    for single in asked.players.values():
        chosen = single.chosen
        assert chosen is not None and chosen[0].type == A.TENPAI
    assert game.rounds[0].tenpai == (0, 1)


def test_the_step_api_offers_52_noten_and_53_tenpai_at_the_declaration() -> None:
    wall = make_wall(DECLARE)
    env = MahjongEnv(MLEAGUE, walls=lambda i: wall, max_rounds=1)
    env.reset(0)
    masks: dict[int, list[int]] = {}
    while not env.done:
        seat, legal = env.current_player, env.legal_actions()
        if env.step_kind == "declaration":
            masks[seat] = legal
            env.step(NO_RIICHI if seat == 1 else PASS)
        elif env.step_kind == "turn":
            drawn = env.game.drawn_tile(seat)
            assert drawn is not None
            env.step(env._index_of[drawn])
            if env.step_kind == "riichi" and not env.done and env.current_player == seat:
                env.step(NO_RIICHI)
        else:
            env.step(PASS if PASS in legal else legal[0])
    assert masks == {0: [NO_RIICHI, PASS], 1: [NO_RIICHI, PASS]}
    assert env.game.rounds[0].tenpai == (0,)


class Hiding(BotCenter):
    """Easy bots, except that every tenpai seat of an exhaustive draw but the dealer
    declares noten."""

    def __init__(self) -> None:
        super().__init__([make("easy") for _ in range(4)])
        self.hidden = 0

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        if inquiry.kind != "declaration":
            super().on_inquiry(inquiry)
            return
        assert self.game is not None
        for seat, single in list(inquiry.players.items()):
            noten = seat != self.game.dealer
            self.hidden += noten
            inquiry.respond(seat, single.find(A.NOTENPAI if noten else A.TENPAI))


def test_a_declaring_match_replays_from_its_record_and_exports_to_tenhou() -> None:
    seed = SEED_WITH_NOTEN
    center = Hiding()
    game = center.game = new_game(MLEAGUE, seed, center)
    game.bus.subscribe(EventBase, check_invariants, late(AFTER))
    run_sync(game)
    assert game.over and center.hidden
    record = server_record(game, seed)
    verdict = verify_record(record)
    assert verdict.ok, verdict.failures
    assert msgspec.convert(record["rules"], RuleConfig).tenpai_declaration
    log = json.loads(json.dumps(to_tenhou(game, ["A", "B", "C", "D"]), ensure_ascii=False))
    assert len(read_game(log).rounds) == len(game.rounds)
    assert verify_tenhou(log).ok


# ---------------------------------------------------------------- switches without a scenario yet


def test_agari_yame_ends_the_match_on_the_top_last_dealer_s_win_unless_switched_off() -> None:
    hands = [NOTEN4[0], NOTEN4[1], "1399m1399p1399s6z", "777m444p777s22z33z"]
    walls = [make_wall(hands, draws="1z2z", dealer=3), make_wall(NOTEN4, dealer=3)]
    start = RoundStart(7, 0, 0, (20000, 20000, 25000, 35000))
    tenhou, _ = play(walls, [(3, A.RON)], start=start, max_rounds=None)
    assert tenhou.rounds[0].kind == "agari" and tenhou.over and len(tenhou.rounds) == 1
    plays_on, _ = play(
        walls, [(3, A.RON)], start=start, max_rounds=2, rules=RuleConfig(agariyame=False)
    )
    assert [(r.kyoku, r.honba) for r in plays_on.rounds] == [(7, 0), (7, 1)]


def _riichi_offers_by_tiles_left(rules: RuleConfig) -> dict[int, bool]:
    """Tiles left in the wall -> whether the tenpai dealer was offered riichi then."""
    center = ScriptedCenter()
    wall = make_wall(DECLARE)
    game = new_game(rules, 0, center, walls=lambda i: wall, max_rounds=1)
    offers: dict[int, bool] = {}

    def spy(inquiry: MultiPlayerInquiry) -> None:
        if inquiry.kind == "turn" and 0 in inquiry.players:
            offers[game.wall.remaining] = inquiry.players[0].find(A.RIICHI) >= 0

    center.hook = spy
    run_sync(game)
    return offers


def test_m_league_allows_riichi_with_no_draw_left() -> None:
    tenhou, mleague = (
        _riichi_offers_by_tiles_left(TENHOU_HANCHAN),
        _riichi_offers_by_tiles_left(MLEAGUE),
    )
    assert min(tenhou) < 4 and not tenhou[min(tenhou)] and tenhou[max(tenhou)]
    assert all(mleague.values())


# ---------------------------------------------------------------- every switch read and exercised

ENGINE = Path(__file__).resolve().parents[2] / "engine"
TESTS = Path(__file__).resolve().parent

#: preset switches whose scenario names the rule, not the field: field -> "module::test"
EXERCISED_BY = {
    "kiriage": "test_presets::test_m_league_rounds_30_fu_4_han_up_and_has_no_kazoe",
    "kazoe_yakuman": "test_presets::test_m_league_rounds_30_fu_4_han_up_and_has_no_kazoe",
    "riichi_min_tiles": "test_presets_more::test_m_league_allows_riichi_with_no_draw_left",
    "riichi_min_points": "test_presets::test_m_league_allows_riichi_below_a_thousand_points",
    "suufon_renda": "test_scenarios::test_four_same_winds_on_the_first_turn_abort",
    "suucha_riichi": "test_presets::test_m_league_has_no_four_riichi_abort",
    "suukaikan": "test_rare_rules::test_four_kans_by_two_players_abort_after_the_next_discard",
    "sanchahou": "test_presets::test_mahjong_soul_pays_three_rons_on_one_discard",
    "agariyame": "test_presets_more::"
    "test_agari_yame_ends_the_match_on_the_top_last_dealer_s_win_unless_switched_off",
    "tobi": "test_presets::test_m_league_plays_on_below_zero",
    "extension": "test_scenarios::test_nobody_at_thirty_thousand_after_south_four_plays_west",
    "leftover_sticks_to_top": "test_presets::test_wrc_confiscates_the_sticks_left_at_the_end",
    "pao_yaku": "test_presets::test_wrc_makes_the_feeder_of_the_fourth_kan_liable_for_suukantsu",
    "pao_scope": "test_presets::"
    "test_mahjong_soul_pao_pays_only_the_liable_yakuman_of_a_composite_hand",
    "yakuman_cap": "test_presets::test_wrc_pays_one_yakuman_at_most",
    "uma_ties": "test_presets::test_m_league_splits_placement_points_on_a_tie",
    "round_points": "test_presets::test_mahjong_soul_results_are_exact_from_the_start_uma_15_5",
    "oka": "test_presets::test_mahjong_soul_results_are_exact_from_the_start_uma_15_5",
}


def _fields() -> tuple[str, ...]:
    return RuleConfig.__struct_fields__


def unread_fields(root: Path, fields: Iterable[str]) -> list[str]:
    """Fields never read as ``rules.<field>`` / ``<x>.rules.<field>`` in ``root``'s modules
    outside rules/config.py (where they are only declared and given preset values)."""
    read: set[str] = set()
    for path in root.rglob("*.py"):
        if path.relative_to(root).as_posix() == "rules/config.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                owner = node.value
                if (isinstance(owner, ast.Name) and owner.id == "rules") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "rules"
                ):
                    read.add(node.attr)
    return [f for f in fields if f not in read]


def _names_in_tests(root: Path) -> tuple[set[str], set[str]]:
    """(every keyword and attribute name, every test function as "module::name")."""
    names: set[str] = set()
    tests: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                tests.add(f"{path.stem}::{node.name}")
    return names, tests


def unexercised_fields(
    root: Path, presets: Iterable[RuleConfig], exercised_by: dict[str, str]
) -> list[str]:
    """Fields some preset sets away from the default that no test in ``root`` names: as a
    ``<field>=`` keyword, a ``.<field>`` read, in a test's name, or through ``exercised_by``
    pointing at a test that exists."""
    default = RuleConfig()
    names, tests = _names_in_tests(root)
    out = []
    for field in _fields():
        if all(getattr(p, field) == getattr(default, field) for p in presets):
            continue
        named = field in names or any(field in t.split("::")[1] for t in tests)
        if not named and exercised_by.get(field) not in tests:
            out.append(field)
    return out


def test_every_rule_field_is_read_by_the_engine() -> None:
    assert unread_fields(ENGINE, _fields()) == []


def test_every_preset_switch_is_exercised_by_a_scenario() -> None:
    assert unexercised_fields(TESTS, PRESETS.values(), EXERCISED_BY) == []
    assert set(EXERCISED_BY) <= set(_fields())


def test_a_field_nobody_reads_is_caught(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "config.py").write_text("rules.ghost_rule\n")  # declared only
    (tmp_path / "game.py").write_text("def f(game):\n    return game.rules.kiriage + rules.tobi\n")
    assert unread_fields(tmp_path, ["kiriage", "tobi", "ghost_rule"]) == ["ghost_rule"]
    assert unread_fields(ENGINE, [*_fields(), "ghost_rule"]) == ["ghost_rule"]


def test_a_preset_switch_no_test_names_is_caught(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_kiriage_rounds_up():\n    f(tobi=False)\n")
    preset = RuleConfig(kiriage=True, tobi=False, suukaikan=False, yakuman_cap=1)
    assert unexercised_fields(tmp_path, [preset], {}) == ["suukaikan", "yakuman_cap"]
    stale = {"suukaikan": "test_x::test_gone", "yakuman_cap": "test_x::test_kiriage_rounds_up"}
    assert unexercised_fields(tmp_path, [preset], stale) == ["suukaikan"]


def test_every_rule_field_is_flipped_by_some_test() -> None:
    """Not only the presets' switches: every field (the flow choices that were Tenhou's in
    code, such as riichi_ankan, rinshan_haitei, karaten_melds) is named by some test."""
    names, tests = _names_in_tests(TESTS)
    more_names, more_tests = _names_in_tests(TESTS.parent / "rules")
    names, tests = names | more_names, tests | more_tests
    unnamed = [
        f
        for f in _fields()
        if f not in names
        and not any(f in t.split("::")[1] for t in tests)
        and EXERCISED_BY.get(f) not in tests
    ]
    assert unnamed == []
