"""The fast scorer (``score_hand``) against the readable specification (``spec_score``) on
seeded random hands (``tests.rules.handgen``), under Tenhou's rules and under the variants the
tables switch on (kiriage, double yakuman, no kazoe, 2-fu double wind pair, 20-fu open pinfu
ron, no kuitan, other red fives, 2 han minimum, renhou) and in sanma.

Both must return the same ``HandResult``: han, fu, every yaku with its han, dora counts,
limit and payments (or both None). Yakuman entries are compared as a set: the fast scorer
lists them in the order it finds them. Adding a yaku to ``scoring.yaku`` without its bit in
the fast path (or the other way round) turns this red. The rare yaku random hands miss
(sankantsu, sanshoku doukou, daisuushii, chuuren, suukantsu) are compared on the hand-written
hands of the ``test_yaku_*`` files: ``winning.win`` scores each with both.
"""

from collections import Counter

import msgspec
import pytest

from engine.rules.config import TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN, RuleConfig
from engine.rules.scoring import score_hand
from engine.rules.scoring.spec import spec_score
from engine.rules.scoring.yaku import REGULAR, YAKUMAN, Yaku, Yakuman
from tests.rules.handgen import Case, random_hands
from tests.rules.winning import comparable

SEED = 20_261_201

VARIANTS = {
    "kiriage, double yakuman, no kazoe": RuleConfig(
        kiriage=True, double_yakuman=True, kazoe_yakuman=False
    ),
    "2-fu double wind, 20-fu open pinfu ron, no kuitan": RuleConfig(
        double_wind_pair_fu=2, open_pinfu_ron_fu=20, kuitan=False
    ),
    "2 han minimum, renhou, other red fives": RuleConfig(min_han=2, renhou=True, aka=(0, 2, 1)),
}

#: yaku the Tenhou sample must contain, so agreeing is not agreeing on nothing: every regular
#: yaku but renhou (off on Tenhou: the variants test it), sankantsu and sanshoku doukou (too
#: rare in a few thousand hands; the 20,000 against ``mahjong`` meet sankantsu)
MUST_COVER = {y.name for y in REGULAR} - {"renhou", "sankantsu", "sanshoku_doukou"} | {
    "kokushi_musou", "suuankou", "suuankou_tanki", "daisangen", "tsuuiisou", "ryuuiisou",
    "chinroutou", "tenhou", "chiihou", "dora", "aka", "ura",
}  # fmt: skip


def _disagreements(cases: list[Case], rules: RuleConfig, seen: Counter[str]) -> list[str]:
    found = []
    for case in cases:
        fast = score_hand(case.concealed, case.melds, case.ctx, rules)
        slow = spec_score(case.concealed, case.melds, case.ctx, rules)
        if comparable(fast) != comparable(slow):
            found.append(f"{case}\n  fast: {fast}\n  spec: {slow}")
        if slow is not None:
            seen.update(y.name for y in slow.yaku)
    return found


def _report(found: list[str], n: int) -> str:
    return f"{len(found)} of {n} hands differ, e.g.\n" + "\n".join(found[:3])


def test_fast_scorer_agrees_with_the_spec_on_tenhou_rules() -> None:
    cases = [  # the generator plays East and South rounds: a quarter move to West or North
        c._replace(ctx=msgspec.structs.replace(c.ctx, round_wind=29 + i % 8 // 4))
        if i % 8 in (0, 4)
        else c
        for i, c in enumerate(random_hands(SEED, 2500))
    ]
    seen: Counter[str] = Counter()
    found = _disagreements(cases, TENHOU_HANCHAN, seen)
    assert not found, _report(found, len(cases))
    assert set(seen) >= MUST_COVER, f"not covered: {sorted(MUST_COVER - set(seen))}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_scorer_agrees_with_the_spec_on_rule_variants(variant: str) -> None:
    rules = VARIANTS[variant]
    cases = list(random_hands(SEED + 1, 500))
    if rules.renhou:  # a third of the rons before the winner's first draw
        cases = [
            c._replace(ctx=msgspec.structs.replace(c.ctx, renhou=True))
            if not c.ctx.tsumo and i % 3 == 0
            else c
            for i, c in enumerate(cases)
        ]
    seen: Counter[str] = Counter()
    found = _disagreements(cases, rules, seen)
    assert not found, _report(found, len(cases))
    if rules.renhou:
        assert seen["renhou"] > 0


def test_fast_scorer_agrees_with_the_spec_in_sanma() -> None:
    cases = list(random_hands(SEED + 2, 500, sanma=True))
    found = _disagreements(cases, TENHOU_SANMA_HANCHAN, Counter())
    assert not found, _report(found, len(cases))


def test_every_yaku_has_a_predicate_han_and_a_tenhou_name() -> None:
    for y in REGULAR:
        assert y.closed >= y.opened >= 0 and y.closed > 0 and y.tenhou, y
        assert type(y).holds is not Yaku.holds, f"{y.name} has no predicate"
    for ym in YAKUMAN:
        assert ym.tenhou and type(ym).holds is not Yakuman.holds, ym
    names = [y.name for y in REGULAR] + [y.name for y in YAKUMAN]
    assert len(names) == len(set(names))
