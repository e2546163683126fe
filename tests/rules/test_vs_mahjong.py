"""Differential test: our scoring against the ``mahjong`` package (2.1.0) on seeded random hands.

``mahjong`` is set to Tenhou's rules (open tanyao, red fives, no double yakuman, kazoe
yakuman at 13 han, no kiriage, 30 fu for an open pinfu-shaped ron, 20 fu pinfu tsumo). The
hands come from ``tests.rules.handgen``: open and closed, chii/pon/daiminkan/kakan/ankan, riichi,
double riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou and chiihou, tsumo and ron,
every seat and round wind, red fives, dora and ura dora. On every hand both must agree on
han, fu (except beside a yakuman, where fu means nothing), the set of yaku with their han,
and the payments (or both reject the hand).

No rule difference needs excluding on these hands. Differences that exist but that the
generator never produces, because the table (the engine) never asks for them:

* haitei together with rinshan, houtei with chankan: ``mahjong`` rejects them; on Tenhou a
  rinshan draw is never haitei (our ``haitei`` yaku ignores the flag on a rinshan win).
* nukidora (sanma kita): both count them as dora; Tenhou prints them inside ドラ.

Sanma (three players, Tenhou's 三麻: no 2m-8m, no chii, red 5p/5s, kita as nukidora, a 1m
indicator points to 9m) gets its own 5,000 hands against ``mahjong``'s ``is_three_player``.

A longer run (1,000,000 hands) is ``python3 -m bench.vs_mahjong_long`` (``--sanma`` too).
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rules.config import TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN, RuleConfig
from engine.rules.scoring import score_hand
from tests.rules.handgen import random_hands
from tests.rules.oracle import differ

HANDS = 20_000
SEED = 20_240_601

#: yaku the seeded sample must contain, so an agreement is not an agreement on trivia
MUST_COVER = {
    "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "rinshan", "chankan", "haitei",
    "houtei", "pinfu", "tanyao", "iipeikou", "yakuhai_haku", "jikaze_ton", "bakaze_nan",
    "sanshoku_doujun", "ittsu", "chanta", "chiitoitsu", "toitoi", "sanankou", "sankantsu",
    "honroutou", "shousangen", "ryanpeikou", "junchan", "honitsu", "chinitsu",
    "kokushi_musou", "suuankou", "suuankou_tanki", "daisangen", "tsuuiisou", "ryuuiisou",
    "chinroutou", "tenhou", "chiihou", "dora", "aka", "ura",
}  # fmt: skip


def test_scoring_agrees_with_mahjong_on_20000_random_winning_hands() -> None:
    disagreements: list[str] = []
    seen: Counter[str] = Counter()
    for case in random_hands(SEED, HANDS):
        verdict = differ(case, TENHOU_HANCHAN)
        if verdict is not None:
            disagreements.append(verdict)
        result = score_hand(case.concealed, case.melds, case.ctx, TENHOU_HANCHAN)
        if result is not None:
            seen.update(y.name for y in result.yaku)
    assert not disagreements, f"{len(disagreements)} hands differ, e.g.\n" + "\n".join(
        disagreements[:5]
    )
    assert set(seen) >= MUST_COVER, f"not covered: {sorted(MUST_COVER - set(seen))}"


def test_sanma_scoring_agrees_with_mahjong_on_5000_random_winning_hands() -> None:
    disagreements: list[str] = []
    kita = 0
    for case in random_hands(SEED, 5000, sanma=True):
        verdict = differ(case, TENHOU_SANMA_HANCHAN)
        if verdict is not None:
            disagreements.append(verdict)
        kita += case.ctx.kita > 0
    assert not disagreements, f"{len(disagreements)} hands differ, e.g.\n" + "\n".join(
        disagreements[:5]
    )
    assert kita > 1000  # the sample exercises nukidora


@pytest.mark.parametrize("rules_change", ["kiriage", "double_wind_pair_fu", "kuitan"])
def test_the_oracle_notices_a_rule_change(rules_change: str) -> None:
    """The comparison is sharp: switching one of our rules away from Tenhou's shows up."""
    changed = {
        "kiriage": RuleConfig(kiriage=True),
        "double_wind_pair_fu": RuleConfig(double_wind_pair_fu=2),
        "kuitan": RuleConfig(kuitan=False),
    }[rules_change]
    assert any(differ(case, changed) for case in random_hands(SEED, 3000))
