"""Rule choices that were Tenhou's written into the flow, now RuleConfig switches: each
scenario plays Tenhou's default and the flipped switch (docs/rules.md)."""

from __future__ import annotations

import pytest

from engine.actions import ActionType as A
from engine.rules.config import RuleConfig
from tests.engine.table import make_wall, play
from tests.rules.winning import win

#: the others only discard; no 1m-5m, 1z, 2z or 789p among them
OTHERS = ["66m88m1346p2468s7z", "67m99m2356p1357s3z", "2344z55z666z77z89s"]


def _ankan_after_riichi(hand: str, rules: RuleConfig, fourth: str, first: str = "5z") -> bool:
    """The dealer riichis on its first draw and draws the ``fourth`` copy of a triplet next."""
    wall = make_wall([hand, *OTHERS], draws=f"{first}1s1s9s{fourth}")
    _, center = play([wall], [(0, A.RIICHI, first)], rules=rules)
    turns = [q for q in center.inquiries if q.kind == "turn" and 0 in q.players]
    return turns[1].players[0].find(A.ANKAN) >= 0


@pytest.mark.parametrize(
    ("riichi_ankan", "offered"), [("readings", False), ("waits", True), ("never", False)]
)
def test_riichi_ankan_that_keeps_the_waits_but_not_every_reading(
    riichi_ankan: str, offered: bool
) -> None:
    # 111m222m333m5m waits 4m/5m either way, but 4m reads as three 123m runs
    rules = RuleConfig(riichi_ankan=riichi_ankan)
    assert _ankan_after_riichi("1112223335m789p", rules, "1m") is offered


def test_riichi_ankan_never_refuses_even_a_kan_that_changes_nothing() -> None:
    hand = "111z234m567p23s99s"  # a pair of 9s and 1z triplet: the kan keeps every reading
    assert _ankan_after_riichi(hand, RuleConfig(), "1z")
    assert not _ankan_after_riichi(hand, RuleConfig(riichi_ankan="never"), "1z")


def test_rinshan_haitei_scores_a_last_tile_rinshan_as_haitei_too() -> None:
    def yaku(rules: RuleConfig) -> set[str]:
        result = win(
            "234m567p23499s", "4s", "ankan:1111z", tsumo=True, rinshan=True, haitei=True,
            rules=rules,
        )  # fmt: skip
        assert result is not None
        return {y.name for y in result.yaku}

    assert "rinshan" in yaku(RuleConfig()) and "haitei" not in yaku(RuleConfig())
    assert {"rinshan", "haitei"} <= yaku(RuleConfig(rinshan_haitei=True))


def _karaten_tenpai(rules: RuleConfig) -> tuple[int, ...]:
    """Seat 1 pons the dealer's 2z with two of its three and waits on the last one: a tanki
    on the kind of its own pon, whose every copy it holds."""
    hands = ["358m1357p1357s45z", "222z123m456m789m1p", OTHERS[0], OTHERS[1]]
    wall = make_wall(hands, draws="2z")
    game, _ = play([wall], [(1, A.PON), (1, A.DISCARD, "1p")], rules=rules)
    assert game.rounds[0].kind == "exhaustive"
    return game.rounds[0].tenpai


def test_karaten_melds_makes_a_tanki_on_ones_own_pon_noten() -> None:
    assert 1 in _karaten_tenpai(RuleConfig())  # Tenhou: only the concealed hand counts
    assert 1 not in _karaten_tenpai(RuleConfig(karaten_melds=True))
