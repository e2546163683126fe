"""Mahjong Soul games exported as tenhou.net/6 JSON: which table they came from, and their
yaku under the names Tenhou prints, so that a Mahjong Soul log is checked by meaning.

The converters (tensoul and its ports, the NAGA helpers) write Tenhou's layout but keep
Mahjong Soul's words: the room in ``rule.disp`` and ``title`` (``玉の間南喰赤``,
``三銀の間東喰赤``, ``金の間四人南``, ``Jade Room South``, ``玉之间``), Mahjong Soul's yaku
names in Japanese, Chinese or English (``役牌:場風牌``, ``宝牌``, ``Prevalent Wind``), the
North dora listed apart (``抜きドラ``), and results in ``sc`` that are exact, or truncated
to whole numbers by some converters. The rules are Mahjong Soul's ranked ones
(``mahjongsoul`` / ``mahjongsoul-sanma``, East or South); a friendly room or a tournament
plays the host's rules, which the export does not state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.rules.config import MAHJONGSOUL_HANCHAN, MAHJONGSOUL_SANMA, RuleConfig

#: room names of the ranked ladder, the friendly and tournament rooms, in the languages the
#: converters write them (Japanese, Chinese, English), and the "4-player South" labels
_ROOM = re.compile(
    r"(銅|銀|金|玉|王座)の間|(铜|银|金|玉|王座)之间|友人戦|大会戦|友人场|比赛场|雀魂"
    r"|(Bronze|Silver|Gold|Jade|Throne) Room|Friendly|Tournament|Majsoul|Mahjong ?Soul"
    r"|[四三]人[東南东]|[34]-Player",
    re.IGNORECASE,
)
_CUSTOM = re.compile(r"友人|大会|比赛|Friendly|Tournament", re.IGNORECASE)
_SANMA = re.compile(r"^三|三人|3-Player|3P", re.IGNORECASE)
_TONPUU = re.compile(r"東|东|East", re.IGNORECASE)


def labels(game: dict[str, Any]) -> str:
    """The texts that name the table: the rule's display name and the title's first field."""
    rule = game.get("rule") or {}
    title = game.get("title") or ["", ""]
    first = title[0] if isinstance(title, list) and title else ""
    return f"{rule.get('disp', '')} {first}"


def is_mahjongsoul(game: dict[str, Any]) -> bool:
    """Whether the log is a Mahjong Soul export (its room or table label says so)."""
    return _ROOM.search(labels(game)) is not None


def rules_of(game: dict[str, Any], players: int) -> tuple[RuleConfig, tuple[str, ...]]:
    """The preset a Mahjong Soul log was played under, and what the log leaves unsaid."""
    text = labels(game)
    sanma = players == 3 or _SANMA.search(text) is not None
    base = MAHJONGSOUL_SANMA if sanma else MAHJONGSOUL_HANCHAN
    rules = msgspec.structs.replace(base, winds=1 if _TONPUU.search(text) else 2)
    rule = game.get("rule") or {}
    if "aka51" in rule and not any(int(rule.get(k, 0)) for k in ("aka51", "aka52", "aka53")):
        rules = msgspec.structs.replace(rules, aka=(0, 0, 0))
    notes: tuple[str, ...] = ()
    if _CUSTOM.search(text):
        notes = (
            "a friendly or tournament room plays its host's rules, which the export does "
            "not state: checked under the ranked rules, uma read back from the results",
        )
    return rules, notes


# ---------------------------------------------------------------- yaku by meaning

_WIND_NAMES = "東南西北"
#: Tenhou's name of each yaku (and dora entry), under every other name a converter writes:
#: Mahjong Soul's Japanese, Chinese (simplified and traditional) and English names, and
#: the common romaji. Seat and round wind are resolved by the caller (SEAT, ROUND).
SEAT = "自風"
ROUND = "場風"
KITA = "抜きドラ"
_ALIASES: dict[str, tuple[str, ...]] = {
    "門前清自摸和": (
        "门前清自摸和",
        "Fully Concealed Hand",
        "Menzen Tsumo",
        "Self-Draw",
        "Win by self-draw",
        "Tsumo",
    ),
    "立直": ("Riichi", "Reach"),
    "両立直": ("ダブル立直", "两立直", "双立直", "Double Riichi", "Daburu Riichi"),
    "一発": ("一发", "一發", "Ippatsu", "One-shot Win"),
    "槍槓": ("枪杠", "搶槓", "Robbing a Kan", "Robbing a Kong", "Chankan"),
    "嶺上開花": ("岭上开花", "After a Kan", "After a Kong", "Rinshan Kaihou", "Rinshan"),
    "海底摸月": ("海底撈月", "海底捞月", "Under the Sea", "Haitei Raoyue", "Haitei"),
    "河底撈魚": ("河底捞鱼", "Under the River", "Houtei Raoyui", "Houtei"),
    "役牌 白": ("役牌:白", "役牌白", "白", "White Dragon", "Haku", "Yakuhai Haku"),
    "役牌 發": ("役牌:發", "役牌:发", "役牌發", "役牌发", "發", "Green Dragon", "Hatsu"),
    "役牌 中": ("役牌:中", "役牌中", "中", "Red Dragon", "Chun", "Yakuhai Chun"),
    SEAT: ("役牌:自風牌", "役牌:自风牌", "自风", "门风牌", "Seat Wind", "Jikaze"),
    ROUND: (
        "役牌:場風牌",
        "役牌:场风牌",
        "场风",
        "圈风牌",
        "Prevalent Wind",
        "Round Wind",
        "Bakaze",
    ),
    "断幺九": ("断么九", "斷么九", "All Simples", "Tanyao"),
    "一盃口": ("一杯口", "Pure Double Sequence", "Iipeikou"),
    "平和": ("Pinfu",),
    "混全帯幺九": ("混全帯么九", "混全带幺九", "Half Outside Hand", "Chanta"),
    "一気通貫": ("一气通贯", "一氣通貫", "Pure Straight", "Ittsu", "Ikkitsuukan"),
    "三色同順": ("三色同顺", "Mixed Triple Sequence", "Sanshoku Doujun", "Sanshoku"),
    "三色同刻": ("Triple Triplets", "Sanshoku Doukou"),
    "三槓子": ("三杠子", "Three Quads", "Sankantsu"),
    "対々和": ("対々", "对对和", "對對和", "All Triplets", "Toitoi"),
    "三暗刻": ("Three Concealed Triplets", "Sanankou"),
    "小三元": ("Little Three Dragons", "Shousangen"),
    "混老頭": ("混老头", "All Terminals and Honors", "Honroutou"),
    "七対子": ("七对子", "七對子", "Seven Pairs", "Chiitoitsu", "Chiitoi"),
    "純全帯幺九": ("純全帯么九", "纯全带幺九", "Fully Outside Hand", "Junchan"),
    "混一色": ("Half Flush", "Honitsu"),
    "二盃口": ("二杯口", "Twice Pure Double Sequence", "Ryanpeikou"),
    "清一色": ("Full Flush", "Chinitsu"),
    "天和": ("Blessing of Heaven", "Tenhou"),
    "地和": ("Blessing of Earth", "Chiihou"),
    "大三元": ("Big Three Dragons", "Daisangen"),
    "四暗刻": ("Four Concealed Triplets", "Suuankou"),
    "四暗刻単騎": (
        "四暗刻单骑",
        "Single-wait Four Concealed Triplets",
        "Four Concealed Triplets Single-Wait",
        "Suuankou Tanki",
    ),
    "字一色": ("All Honors", "Tsuuiisou"),
    "緑一色": ("绿一色", "All Green", "Ryuuiisou"),
    "清老頭": ("清老头", "All Terminals", "Chinroutou"),
    "国士無双": ("国士无双", "國士無雙", "Thirteen Orphans", "Kokushi Musou"),
    "国士無双１３面": (
        "国士無双十三面",
        "国士無双十三面待ち",
        "国士無双13面待ち",
        "国士无双十三面",
        "13-wait Thirteen Orphans",
        "Thirteen-wait Thirteen Orphans",
        "Kokushi Musou 13-sided",
    ),
    "小四喜": ("Four Little Winds", "Small Four Winds", "Shousuushii"),
    "大四喜": ("Four Big Winds", "Big Four Winds", "Daisuushii"),
    "四槓子": ("四杠子", "Four Quads", "Suukantsu"),
    "九蓮宝燈": ("九莲宝灯", "九蓮寶燈", "Nine Gates", "Chuuren Poutou"),
    "純正九蓮宝燈": ("纯正九莲宝灯", "True Nine Gates", "Junsei Chuuren Poutou"),
    "ドラ": ("宝牌", "寶牌", "Dora"),
    "赤ドラ": ("红宝牌", "紅寶牌", "赤宝牌", "Red Five", "Red Dora", "Aka Dora", "Akadora"),
    "裏ドラ": ("里宝牌", "裏寶牌", "Ura Dora", "Uradora"),
    KITA: ("北抜きドラ", "拔北宝牌", "拔北寶牌", "北宝牌", "Kita", "Nuki Dora", "Nukidora"),
}
_TENHOU_NAME = {alias.casefold(): name for name, aliases in _ALIASES.items() for alias in aliases}
_TENHOU_NAME.update({name.casefold(): name for name in _ALIASES})


def tenhou_name(name: str, seat_wind: int, round_wind: int) -> str:
    """The Tenhou name of a converter's yaku name (unknown names stay as they are).
    ``seat_wind`` and ``round_wind`` are 0..3 (East..North)."""
    plain = name.strip()
    found = _TENHOU_NAME.get(plain.casefold())
    if found is None:
        return plain
    if found == SEAT:
        return f"自風 {_WIND_NAMES[seat_wind]}"
    if found == ROUND:
        return f"場風 {_WIND_NAMES[round_wind]}"
    return found


def tenhou_yaku(
    yaku: Sequence[tuple[str, int]], seat_wind: int, round_wind: int
) -> tuple[tuple[str, int], ...]:
    """A win's yaku as Tenhou prints them: names translated, and the North dora counted
    inside ``ドラ`` (Tenhou prints nukidora there; the converters list it apart)."""
    out: list[tuple[str, int]] = []
    kita = 0
    for name, han in yaku:
        tenhou = tenhou_name(name, seat_wind, round_wind)
        if tenhou == KITA:
            kita += han
        else:
            out.append((tenhou, han))
    if kita:
        dora = next((i for i, (n, _) in enumerate(out) if n == "ドラ"), -1)
        if dora < 0:
            out.append(("ドラ", kita))
        else:
            out[dora] = ("ドラ", out[dora][1] + kita)
    return tuple(out)
