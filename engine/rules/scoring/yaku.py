"""Every yaku of Tenhou's rules, once: its name, Tenhou's name, its han closed and open, and
what it means, as one small predicate over a plain reading of the hand (``decomposition``).

The predicates are the specification: ``spec.spec_score`` scores a hand with them alone, and
the fast scorer, which tests the same conditions as bits of a mask (``hand_mask`` for the
tiles and the situation, ``reading_mask`` for one reading), is tested against it. A predicate
may ignore whether the hand is closed: a yaku worth 0 han open (``opened == 0``) does not
count on an open hand.

``REGULAR`` and ``YAKUMAN`` are in the order results list them; below them, each yaku's bit
in the fast scorer's mask (``YakuMask``) or its index in ``YAKUMAN``.

Adding a yaku: its class here and its place in ``REGULAR`` or ``YAKUMAN``, then its test in
``hand_mask`` or ``reading_mask``; tests/rules/test_spec_vs_fast.py fails until the two agree.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from engine.rules import tiles
from engine.rules.scoring.decomposition import Reading
from engine.rules.tiles import (
    DRAGONS,
    EAST,
    GREEN,
    HONOURS,
    NORTH,
    SIMPLES,
    SOUTH,
    TERMINALS,
    WEST,
    WINDS,
    YAOCHUU,
    Kind,
)

#: a set of regular yaku as bits, ``1 << index in REGULAR`` (the fast scorer's currency)
YakuMask: TypeAlias = int


class Yaku:
    """A regular yaku. ``opened`` is its han with an open hand, 0 when it needs menzen."""

    name: ClassVar[str]
    tenhou: ClassVar[str]
    closed: ClassVar[int]
    opened: ClassVar[int]

    def holds(self, h: Reading) -> bool:
        raise NotImplementedError

    def han(self, menzen: bool) -> int:
        return self.closed if menzen else self.opened

    def __repr__(self) -> str:
        return f"<{self.name}>"


class Yakuman:
    """A yakuman; ``double`` ones count twice when ``RuleConfig.double_yakuman`` is on
    (off on Tenhou, where they are single yakuman but keep their own names)."""

    name: ClassVar[str]
    tenhou: ClassVar[str]
    double: ClassVar[bool] = False

    def holds(self, h: Reading) -> bool:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name}>"


# ---------------------------------------------------------------- the situation


class Riichi(Yaku):
    name, tenhou, closed, opened = "riichi", "立直", 1, 0

    def holds(self, h: Reading) -> bool:
        return h.ctx.riichi and not h.ctx.double_riichi


class DoubleRiichi(Yaku):
    """Riichi declared with the first discard; it replaces riichi."""

    name, tenhou, closed, opened = "double_riichi", "両立直", 2, 0

    def holds(self, h: Reading) -> bool:
        return h.ctx.double_riichi


class Ippatsu(Yaku):
    name, tenhou, closed, opened = "ippatsu", "一発", 1, 0

    def holds(self, h: Reading) -> bool:
        return h.ctx.ippatsu and (h.ctx.riichi or h.ctx.double_riichi)


class MenzenTsumo(Yaku):
    """A closed hand (ankan allowed) completed by its own draw."""

    name, tenhou, closed, opened = "menzen_tsumo", "門前清自摸和", 1, 0

    def holds(self, h: Reading) -> bool:
        return h.ctx.tsumo


class Rinshan(Yaku):
    name, tenhou, closed, opened = "rinshan", "嶺上開花", 1, 1

    def holds(self, h: Reading) -> bool:
        return h.ctx.tsumo and h.ctx.rinshan


class Chankan(Yaku):
    name, tenhou, closed, opened = "chankan", "槍槓", 1, 1

    def holds(self, h: Reading) -> bool:
        return not h.ctx.tsumo and h.ctx.chankan


class Haitei(Yaku):
    """The last draw of the wall; a rinshan draw only with ``rinshan_haitei`` (not Tenhou)."""

    name, tenhou, closed, opened = "haitei", "海底摸月", 1, 1

    def holds(self, h: Reading) -> bool:
        return h.ctx.tsumo and h.ctx.haitei and (not h.ctx.rinshan or h.rules.rinshan_haitei)


class Houtei(Yaku):
    name, tenhou, closed, opened = "houtei", "河底撈魚", 1, 1

    def holds(self, h: Reading) -> bool:
        return not h.ctx.tsumo and h.ctx.houtei


class Renhou(Yaku):
    """A non-dealer's ron before their first draw, as mangan; off on Tenhou."""

    name, tenhou, closed, opened = "renhou", "人和", 5, 0

    def holds(self, h: Reading) -> bool:
        return h.rules.renhou and h.ctx.renhou and not h.ctx.tsumo and not h.dealer


# ---------------------------------------------------------------- one han


def _valued(h: Reading, kind: Kind) -> bool:
    """A dragon, the seat wind or the round wind: a pair of it is worth fu, a set is yakuhai."""
    return kind in DRAGONS or kind in (h.ctx.seat_wind, h.ctx.round_wind)


class Pinfu(Yaku):
    """Four sequences, a pair worth no fu, a two-sided wait: nothing but the win scores fu."""

    name, tenhou, closed, opened = "pinfu", "平和", 1, 0

    def holds(self, h: Reading) -> bool:
        return len(h.runs) == 4 and not _valued(h, h.pair) and h.wait == "ryanmen"


class Tanyao(Yaku):
    """Only simples; with an open hand only under kuitan (Tenhou: on)."""

    name, tenhou, closed, opened = "tanyao", "断幺九", 1, 1

    def holds(self, h: Reading) -> bool:
        return h.only(SIMPLES) and (h.menzen or h.rules.kuitan)


def _peikou(h: Reading) -> int:
    """Pairs of identical sequences."""
    return sum(h.runs.count(s) // 2 for s in set(h.runs))


class Iipeikou(Yaku):
    name, tenhou, closed, opened = "iipeikou", "一盃口", 1, 0

    def holds(self, h: Reading) -> bool:
        return _peikou(h) == 1


class _Dragon(Yaku):
    dragon: ClassVar[Kind]
    closed, opened = 1, 1

    def holds(self, h: Reading) -> bool:
        return self.dragon in h.sets


class Haku(_Dragon):
    name, tenhou, dragon = "yakuhai_haku", "役牌 白", tiles.HAKU


class Hatsu(_Dragon):
    name, tenhou, dragon = "yakuhai_hatsu", "役牌 發", tiles.HATSU


class Chun(_Dragon):
    name, tenhou, dragon = "yakuhai_chun", "役牌 中", tiles.CHUN


class _SeatWind(Yaku):
    """A set of one's own wind; a double wind scores this and the round wind's."""

    wind: ClassVar[Kind]
    closed, opened = 1, 1

    def holds(self, h: Reading) -> bool:
        return h.ctx.seat_wind == self.wind and self.wind in h.sets


class JikazeTon(_SeatWind):
    name, tenhou, wind = "jikaze_ton", "自風 東", EAST


class JikazeNan(_SeatWind):
    name, tenhou, wind = "jikaze_nan", "自風 南", SOUTH


class JikazeShaa(_SeatWind):
    name, tenhou, wind = "jikaze_shaa", "自風 西", WEST


class JikazePei(_SeatWind):
    name, tenhou, wind = "jikaze_pei", "自風 北", NORTH


class _RoundWind(Yaku):
    wind: ClassVar[Kind]
    closed, opened = 1, 1

    def holds(self, h: Reading) -> bool:
        return h.ctx.round_wind == self.wind and self.wind in h.sets


class BakazeTon(_RoundWind):
    name, tenhou, wind = "bakaze_ton", "場風 東", EAST


class BakazeNan(_RoundWind):
    name, tenhou, wind = "bakaze_nan", "場風 南", SOUTH


class BakazeShaa(_RoundWind):
    name, tenhou, wind = "bakaze_shaa", "場風 西", WEST


class BakazePei(_RoundWind):
    name, tenhou, wind = "bakaze_pei", "場風 北", NORTH


# ---------------------------------------------------------------- two han


class Chiitoitsu(Yaku):
    """Seven distinct pairs (25 fu)."""

    name, tenhou, closed, opened = "chiitoitsu", "七対子", 2, 0

    def holds(self, h: Reading) -> bool:
        return h.form == "chiitoitsu"


class SanshokuDoujun(Yaku):
    """The same sequence in all three suits."""

    name, tenhou, closed, opened = "sanshoku_doujun", "三色同順", 2, 1

    def holds(self, h: Reading) -> bool:
        return any({s, s + 9, s + 18} <= set(h.runs) for s in range(7))


class Ittsu(Yaku):
    """123, 456 and 789 of one suit."""

    name, tenhou, closed, opened = "ittsu", "一気通貫", 2, 1

    def holds(self, h: Reading) -> bool:
        return any({s, s + 3, s + 6} <= set(h.runs) for s in (0, 9, 18))


def _outside(h: Reading) -> bool:
    """A standard hand with a sequence whose every group and pair hold a terminal or honour."""
    return (
        h.form == "standard"
        and bool(h.runs)
        and h.pair in YAOCHUU
        and all(g.has_yaochuu for g in h.groups)
    )


class Chanta(Yaku):
    """Every group and the pair hold a terminal or an honour, with honours in the hand."""

    name, tenhou, closed, opened = "chanta", "混全帯幺九", 2, 1

    def holds(self, h: Reading) -> bool:
        return _outside(h) and h.has(HONOURS)


class Toitoi(Yaku):
    name, tenhou, closed, opened = "toitoi", "対々和", 2, 2

    def holds(self, h: Reading) -> bool:
        return h.form == "standard" and not h.runs


class Sanankou(Yaku):
    """Three concealed triplets or kans (a triplet a ron completed is not one)."""

    name, tenhou, closed, opened = "sanankou", "三暗刻", 2, 2

    def holds(self, h: Reading) -> bool:
        return h.concealed_sets == 3


class SanshokuDoukou(Yaku):
    name, tenhou, closed, opened = "sanshoku_doukou", "三色同刻", 2, 2

    def holds(self, h: Reading) -> bool:
        return any({k, k + 9, k + 18} <= set(h.sets) for k in range(9))


class Sankantsu(Yaku):
    name, tenhou, closed, opened = "sankantsu", "三槓子", 2, 2

    def holds(self, h: Reading) -> bool:
        return h.kans == 3


class Shousangen(Yaku):
    """Two dragon sets and a dragon pair."""

    name, tenhou, closed, opened = "shousangen", "小三元", 2, 2

    def holds(self, h: Reading) -> bool:
        return h.form == "standard" and h.pair in DRAGONS and len(set(h.sets) & set(DRAGONS)) == 2


class Honroutou(Yaku):
    """Only terminals and honours, both present (without honours it is chinroutou)."""

    name, tenhou, closed, opened = "honroutou", "混老頭", 2, 2

    def holds(self, h: Reading) -> bool:
        return h.only(YAOCHUU) and h.has(HONOURS) and h.has(TERMINALS)


# ---------------------------------------------------------------- three and six han


class Ryanpeikou(Yaku):
    """Two pairs of identical sequences: it replaces iipeikou (and beats chiitoitsu)."""

    name, tenhou, closed, opened = "ryanpeikou", "二盃口", 3, 0

    def holds(self, h: Reading) -> bool:
        return _peikou(h) == 2


class Junchan(Yaku):
    """Every group and the pair hold a terminal; no honours."""

    name, tenhou, closed, opened = "junchan", "純全帯幺九", 3, 2

    def holds(self, h: Reading) -> bool:
        return _outside(h) and not h.has(HONOURS)


def _suits(h: Reading) -> set[int]:
    return {k // 9 for k in h.kinds if k < 27}


class Honitsu(Yaku):
    """One suit and honours."""

    name, tenhou, closed, opened = "honitsu", "混一色", 3, 2

    def holds(self, h: Reading) -> bool:
        return len(_suits(h)) == 1 and h.has(HONOURS)


class Chinitsu(Yaku):
    """One suit, no honours."""

    name, tenhou, closed, opened = "chinitsu", "清一色", 6, 5

    def holds(self, h: Reading) -> bool:
        return len(_suits(h)) == 1 and not h.has(HONOURS)


# ---------------------------------------------------------------- yakuman


class KokushiMusou(Yakuman):
    name, tenhou = "kokushi_musou", "国士無双"

    def holds(self, h: Reading) -> bool:
        return h.wait == "kokushi"


class KokushiMusou13(Yakuman):
    """Thirteen orphans waiting on all thirteen."""

    name, tenhou, double = "kokushi_musou_13", "国士無双１３面", True

    def holds(self, h: Reading) -> bool:
        return h.wait == "kokushi_13"


class Suuankou(Yakuman):
    name, tenhou = "suuankou", "四暗刻"

    def holds(self, h: Reading) -> bool:
        return h.concealed_sets == 4 and h.wait != "tanki"


class SuuankouTanki(Yakuman):
    name, tenhou, double = "suuankou_tanki", "四暗刻単騎", True

    def holds(self, h: Reading) -> bool:
        return h.concealed_sets == 4 and h.wait == "tanki"


class Daisangen(Yakuman):
    name, tenhou = "daisangen", "大三元"

    def holds(self, h: Reading) -> bool:
        return set(DRAGONS) <= set(h.sets)


class Shousuushii(Yakuman):
    """Three wind sets and a wind pair."""

    name, tenhou = "shousuushii", "小四喜"

    def holds(self, h: Reading) -> bool:
        return h.form == "standard" and h.pair in WINDS and len(set(h.sets) & set(WINDS)) == 3


class Daisuushii(Yakuman):
    name, tenhou, double = "daisuushii", "大四喜", True

    def holds(self, h: Reading) -> bool:
        return set(WINDS) <= set(h.sets)


class Tsuuiisou(Yakuman):
    """Only honours (seven pairs of them too, on Tenhou)."""

    name, tenhou = "tsuuiisou", "字一色"

    def holds(self, h: Reading) -> bool:
        return h.only(HONOURS)


class Chinroutou(Yakuman):
    name, tenhou = "chinroutou", "清老頭"

    def holds(self, h: Reading) -> bool:
        return h.only(TERMINALS)


class Ryuuiisou(Yakuman):
    """Only green tiles; hatsu is not required (Tenhou)."""

    name, tenhou = "ryuuiisou", "緑一色"

    def holds(self, h: Reading) -> bool:
        return h.only(GREEN)


#: 1112345678999: the nine gates, as counts of one suit
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chuuren_extra(h: Reading) -> Kind | None:
    """The kind beyond 1112345678999 of one suit in a hand with no meld, or None."""
    suits = _suits(h)
    if h.melded or len(suits) != 1 or h.has(HONOURS):
        return None
    base = 9 * suits.pop()
    extra = [h.kinds.count(base + i) - need for i, need in enumerate(_NINE_GATES)]
    if min(extra) < 0:
        return None
    return base + extra.index(1)


class ChuurenPoutou(Yakuman):
    name, tenhou = "chuuren_poutou", "九蓮宝燈"

    def holds(self, h: Reading) -> bool:
        extra = _chuuren_extra(h)
        return extra is not None and extra != h.win


class JunseiChuurenPoutou(Yakuman):
    """Nine gates waiting on all nine: the extra tile is the winning one."""

    name, tenhou, double = "junsei_chuuren_poutou", "純正九蓮宝燈", True

    def holds(self, h: Reading) -> bool:
        return _chuuren_extra(h) == h.win


class Suukantsu(Yakuman):
    name, tenhou = "suukantsu", "四槓子"

    def holds(self, h: Reading) -> bool:
        return h.kans == 4


class Tenhou(Yakuman):
    """The dealer's first draw completes the hand."""

    name, tenhou = "tenhou", "天和"

    def holds(self, h: Reading) -> bool:
        return h.ctx.tenhou and h.ctx.tsumo and h.dealer and not h.melded


class Chiihou(Yakuman):
    """A non-dealer's first draw, before any call, completes the hand."""

    name, tenhou = "chiihou", "地和"

    def holds(self, h: Reading) -> bool:
        return h.ctx.chiihou and h.ctx.tsumo and not h.dealer and not h.melded


#: regular yaku in the order results list them
REGULAR: tuple[Yaku, ...] = (
    Riichi(), DoubleRiichi(), Ippatsu(), MenzenTsumo(), Rinshan(), Chankan(), Haitei(),
    Houtei(), Renhou(),
    Pinfu(), Tanyao(), Iipeikou(), Haku(), Hatsu(), Chun(),
    JikazeTon(), JikazeNan(), JikazeShaa(), JikazePei(),
    BakazeTon(), BakazeNan(), BakazeShaa(), BakazePei(),
    Chiitoitsu(), SanshokuDoujun(), Ittsu(), Chanta(), Toitoi(), Sanankou(), SanshokuDoukou(),
    Sankantsu(), Shousangen(), Honroutou(),
    Ryanpeikou(), Junchan(), Honitsu(), Chinitsu(),
)  # fmt: skip
YAKUMAN: tuple[Yakuman, ...] = (
    KokushiMusou(), KokushiMusou13(), Suuankou(), SuuankouTanki(), Daisangen(), Shousuushii(),
    Daisuushii(), Tsuuiisou(), Chinroutou(), Ryuuiisou(), ChuurenPoutou(),
    JunseiChuurenPoutou(), Suukantsu(), Tenhou(), Chiihou(),
)  # fmt: skip


# ---------------------------------------------------------------- the fast scorer's view


def _bit(name: str) -> YakuMask:
    return 1 << next(i for i, y in enumerate(REGULAR) if y.name == name)


def _index(name: str) -> int:
    return next(i for i, y in enumerate(YAKUMAN) if y.name == name)


RIICHI, DOUBLE_RIICHI, IPPATSU = _bit("riichi"), _bit("double_riichi"), _bit("ippatsu")
MENZEN_TSUMO, RINSHAN, CHANKAN = _bit("menzen_tsumo"), _bit("rinshan"), _bit("chankan")
HAITEI, HOUTEI, RENHOU = _bit("haitei"), _bit("houtei"), _bit("renhou")
PINFU, TANYAO, IIPEIKOU = _bit("pinfu"), _bit("tanyao"), _bit("iipeikou")
HAKU, HATSU, CHUN = _bit("yakuhai_haku"), _bit("yakuhai_hatsu"), _bit("yakuhai_chun")
#: seat-wind and round-wind yakuhai by wind (E S W N); a double wind scores one of each
JIKAZE = tuple(_bit(f"jikaze_{w}") for w in ("ton", "nan", "shaa", "pei"))
BAKAZE = tuple(_bit(f"bakaze_{w}") for w in ("ton", "nan", "shaa", "pei"))
CHIITOITSU, SANSHOKU, ITTSU = _bit("chiitoitsu"), _bit("sanshoku_doujun"), _bit("ittsu")
CHANTA, TOITOI, SANANKOU = _bit("chanta"), _bit("toitoi"), _bit("sanankou")
DOUKOU, SANKANTSU = _bit("sanshoku_doukou"), _bit("sankantsu")
SHOUSANGEN, HONROUTOU = _bit("shousangen"), _bit("honroutou")
RYANPEIKOU, JUNCHAN = _bit("ryanpeikou"), _bit("junchan")
HONITSU, CHINITSU = _bit("honitsu"), _bit("chinitsu")

KOKUSHI, KOKUSHI_13 = _index("kokushi_musou"), _index("kokushi_musou_13")
SUUANKOU, SUUANKOU_TANKI = _index("suuankou"), _index("suuankou_tanki")
DAISANGEN, SHOUSUUSHII, DAISUUSHII = (
    _index("daisangen"),
    _index("shousuushii"),
    _index("daisuushii"),
)
TSUUIISOU, CHINROUTOU, RYUUIISOU = _index("tsuuiisou"), _index("chinroutou"), _index("ryuuiisou")
CHUUREN, JUNSEI_CHUUREN = _index("chuuren_poutou"), _index("junsei_chuuren_poutou")
SUUKANTSU, TENHOU, CHIIHOU = _index("suukantsu"), _index("tenhou"), _index("chiihou")
