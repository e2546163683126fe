"""Every yaku of Tenhou's rules: its name, Tenhou's name and its han, one entry each.

``REGULAR`` and ``YAKUMAN`` are in the order results list them. Each yaku's condition is one
named line over a hand's feature record: ``yaku.hand`` for those of the tiles and the
situation (tested once per hand), ``yaku.reading`` for those of one interpretation. Both set
bit ``1 << index`` of the yaku in a mask, so a hand's yaku are a handful of integer operations.
"""

from __future__ import annotations

from typing import NamedTuple


class Yaku(NamedTuple):
    """A regular yaku. ``opened`` is its han with an open hand, 0 when it needs menzen."""

    name: str
    tenhou: str
    closed: int
    opened: int


class Yakuman(NamedTuple):
    """A yakuman; ``double`` ones count twice when ``RuleConfig.double_yakuman`` is on
    (off on Tenhou, where they are single yakuman but keep their own names)."""

    name: str
    tenhou: str
    double: bool


#: regular yaku in the order results list them
REGULAR: tuple[Yaku, ...] = (
    # the situation
    Yaku("riichi", "立直", 1, 0),
    Yaku("double_riichi", "両立直", 2, 0),
    Yaku("ippatsu", "一発", 1, 0),
    Yaku("menzen_tsumo", "門前清自摸和", 1, 0),
    Yaku("rinshan", "嶺上開花", 1, 1),
    Yaku("chankan", "槍槓", 1, 1),
    Yaku("haitei", "海底摸月", 1, 1),
    Yaku("houtei", "河底撈魚", 1, 1),
    Yaku("renhou", "人和", 5, 0),
    # one han
    Yaku("pinfu", "平和", 1, 0),
    Yaku("tanyao", "断幺九", 1, 1),
    Yaku("iipeikou", "一盃口", 1, 0),
    Yaku("yakuhai_haku", "役牌 白", 1, 1),
    Yaku("yakuhai_hatsu", "役牌 發", 1, 1),
    Yaku("yakuhai_chun", "役牌 中", 1, 1),
    Yaku("jikaze_ton", "自風 東", 1, 1),
    Yaku("jikaze_nan", "自風 南", 1, 1),
    Yaku("jikaze_shaa", "自風 西", 1, 1),
    Yaku("jikaze_pei", "自風 北", 1, 1),
    Yaku("bakaze_ton", "場風 東", 1, 1),
    Yaku("bakaze_nan", "場風 南", 1, 1),
    Yaku("bakaze_shaa", "場風 西", 1, 1),
    Yaku("bakaze_pei", "場風 北", 1, 1),
    # two han
    Yaku("chiitoitsu", "七対子", 2, 0),
    Yaku("sanshoku_doujun", "三色同順", 2, 1),
    Yaku("ittsu", "一気通貫", 2, 1),
    Yaku("chanta", "混全帯幺九", 2, 1),
    Yaku("toitoi", "対々和", 2, 2),
    Yaku("sanankou", "三暗刻", 2, 2),
    Yaku("sanshoku_doukou", "三色同刻", 2, 2),
    Yaku("sankantsu", "三槓子", 2, 2),
    Yaku("shousangen", "小三元", 2, 2),
    Yaku("honroutou", "混老頭", 2, 2),
    # three and six han
    Yaku("ryanpeikou", "二盃口", 3, 0),
    Yaku("junchan", "純全帯幺九", 3, 2),
    Yaku("honitsu", "混一色", 3, 2),
    Yaku("chinitsu", "清一色", 6, 5),
)

YAKUMAN: tuple[Yakuman, ...] = (
    Yakuman("kokushi_musou", "国士無双", False),
    Yakuman("kokushi_musou_13", "国士無双１３面", True),
    Yakuman("suuankou", "四暗刻", False),
    Yakuman("suuankou_tanki", "四暗刻単騎", True),
    Yakuman("daisangen", "大三元", False),
    Yakuman("shousuushii", "小四喜", False),
    Yakuman("daisuushii", "大四喜", True),
    Yakuman("tsuuiisou", "字一色", False),
    Yakuman("chinroutou", "清老頭", False),
    Yakuman("ryuuiisou", "緑一色", False),
    Yakuman("chuuren_poutou", "九蓮宝燈", False),
    Yakuman("junsei_chuuren_poutou", "純正九蓮宝燈", True),
    Yakuman("suukantsu", "四槓子", False),
    Yakuman("tenhou", "天和", False),
    Yakuman("chiihou", "地和", False),
)


def _bit(name: str) -> int:
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
