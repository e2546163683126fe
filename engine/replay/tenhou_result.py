"""Tenhou's round results (``["和了", deltas, info...]``, ``["流局", deltas]``) both ways."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.replay.record import LoggedWin, ReplayError, RoundEnd

WIN = "和了"
#: Tenhou's draw names -> our kinds; the two tenpai variants are exhaustive draws
DRAW_NAMES = {
    "流局": "ryuukyoku",
    "全員聴牌": "ryuukyoku",
    "全員不聴": "ryuukyoku",
    "流し満貫": "nagashi_mangan",
    "九種九牌": "kyuushu",
    "四家立直": "suucha_riichi",
    "三家和了": "sanchahou",
    "四槓散了": "suukaikan",
    "四風連打": "suufon_renda",
    # the Mahjong Soul converters' words (Japanese, romaji, English)
    "四開槓": "suukaikan",
    "三家和": "sanchahou",
    "Ryuukyoku": "ryuukyoku",
    "Exhaustive Draw": "ryuukyoku",
    "Nagashi Mangan": "nagashi_mangan",
    "Mangan at Draw": "nagashi_mangan",
    "Kyuushu Kyuuhai": "kyuushu",
    "Nine Terminal Abortion": "kyuushu",
    "Suucha Riichi": "suucha_riichi",
    "Four Riichi Abortion": "suucha_riichi",
    "Sanchahou": "sanchahou",
    "Three Ron Abortion": "sanchahou",
    "Suukaikan": "suukaikan",
    "Four Kan Abortion": "suukaikan",
    "Suufon Renda": "suufon_renda",
    "Four Wind Abortion": "suufon_renda",
}
#: the writer's names: Tenhou's (listed first for each kind)
_DRAW_WRITE: dict[str, str] = {}
for _name, _kind in DRAW_NAMES.items():
    if _name not in ("全員聴牌", "全員不聴"):
        _DRAW_WRITE.setdefault(_kind, _name)
LIMIT_NAMES = {
    "満貫": "mangan",
    "跳満": "haneman",
    "倍満": "baiman",
    "三倍満": "sanbaiman",
    "役満": "yakuman",
}
_LIMIT_WRITE = {v: k for k, v in LIMIT_NAMES.items()}
#: the limit names Mahjong Soul converters write besides Tenhou's (a counted yakuman is a
#: yakuman; "切り上げ満貫" is a rounded-up mangan, which no Mahjong Soul ranked table plays)
LIMIT_NAMES.update({"数え役満": "yakuman", "切り上げ満貫": "mangan"})
#: and in English (their English and romaji modes: "Mangan 2000-4000点", "30Fu2Han2000点")
LIMIT_NAMES.update(
    {
        "Mangan": "mangan",
        "Haneman": "haneman",
        "Baiman": "baiman",
        "Sanbaiman": "sanbaiman",
        "Yakuman": "yakuman",
        "Kazoe Yakuman": "yakuman",
        "Counted Yakuman": "yakuman",
        "Kiriage Mangan": "mangan",
        "Rounded Mangan": "mangan",
    }
)
#: the order Tenhou prints yaku in, read off the corpus (every pair of yaku seen in one
#: win keeps its order here); the wind and dragon yakuhai share one place, in hand order
TENHOU_ORDER = [
    "立直",
    "嶺上開花",
    "河底撈魚",
    "両立直",
    "一発",
    "槍槓",
    "海底摸月",
    "門前清自摸和",
    "平和",
    "一盃口",
    "七対子",
    "一気通貫",
    "三色同順",
    "三槓子",
    "小三元",
    "三暗刻",
    "対々和",
    "役牌",
    "混全帯幺九",
    "三色同刻",
    "混老頭",
    "二盃口",
    "断幺九",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "赤ドラ",
    "裏ドラ",
]
_RANK = {name: i for i, name in enumerate(TENHOU_ORDER)}


def yaku_rank(name: str) -> int:
    """Where Tenhou prints a yaku (``自風 東``, ``場風 南``, ``役牌 白`` share 役牌's place)."""
    head = "役牌" if name.startswith(("自風", "場風", "役牌")) else name
    return _RANK.get(head, len(_RANK))


_LIMITS = "|".join(sorted(LIMIT_NAMES, key=len, reverse=True))
_SCORE = re.compile(
    rf"^(?:(\d+)(?:符|Fu)(\d+)(?:飜|Han)|({_LIMITS}) ?)(\d+)(?:-(\d+))?(?:点|Points)(∀)?$"
)
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|(役満))\)$")
YAKUMAN_HAN = 13


def parse_yaku(text: str) -> tuple[str, int]:
    found = _YAKU.match(text)
    if found is None:
        raise ReplayError(f"bad yaku {text!r}")
    return found[1], YAKUMAN_HAN if found[3] else int(found[2])


def parse_win(deltas: Sequence[int], info: Sequence[Any], players: int = 4) -> LoggedWin:
    who, from_seat, pao, text, *yaku_texts = info
    found = _SCORE.match(text)
    if found is None:
        raise ReplayError(f"bad score text {text!r}")
    yaku = tuple(parse_yaku(y) for y in yaku_texts)
    points = tuple(int(x) for x in (found[4], found[5]) if x is not None)
    han = int(found[2]) if found[2] else sum(h for _, h in yaku)
    return LoggedWin(
        who=who,
        from_seat=from_seat,
        pao=-1 if pao == who else pao,
        deltas=tuple(deltas[:players]),
        han=han,
        fu=int(found[1]) if found[1] else None,
        limit=LIMIT_NAMES[found[3]] if found[3] else "",
        points=points,
        yaku=yaku,
    )


def parse_result(result: Sequence[Any], players: int) -> RoundEnd:
    head = result[0]
    if head == WIN:
        wins = tuple(parse_win(result[i], result[i + 1], players) for i in range(1, len(result), 2))
        total = [sum(w.deltas[s] for w in wins) for s in range(players)]
        return RoundEnd("agari", tuple(total), wins)
    kind = DRAW_NAMES.get(head)
    if kind is None:
        raise ReplayError(f"unknown round result {head!r}")
    deltas = tuple(result[1][:players]) if len(result) > 1 else (0,) * players
    tenpai = None
    if head == "全員聴牌":
        tenpai = tuple(range(players))
    elif kind == "ryuukyoku" and (head == "全員不聴" or any(deltas)):
        tenpai = tuple(s for s in range(players) if deltas[s] > 0)
    # a plain "流局" without payments (Mahjong Soul converters): all tenpai or all noten
    return RoundEnd(kind, deltas, tenpai=tenpai)


def score_text(win: LoggedWin, dealer: bool) -> str:
    """The score text Tenhou prints: ``30符1飜1000点``, ``満貫2000-4000点``, ``...点∀``."""
    if win.points is None or win.han is None:
        raise ReplayError("a win without points cannot be written as Tenhou JSON")
    head = _LIMIT_WRITE[win.limit] if win.limit else f"{win.fu}符{win.han}飜"
    numbers = "-".join(str(p) for p in win.points)
    tail = "∀" if win.tsumo and dealer else ""
    return f"{head}{numbers}点{tail}"


def yaku_text(name: str, han: int) -> str:
    if han >= YAKUMAN_HAN:  # no single regular yaku reaches 13 han
        return f"{name}(役満)"
    return f"{name}({han}飜)"


def format_result(
    end: RoundEnd, dealer: int, players: int = 4, all_tenpai: bool = False
) -> list[Any]:
    """The result array of a round; zero deltas of a draw are left out, as Tenhou does
    (an exhaustive draw without payments is 全員聴牌 or 全員不聴)."""
    if end.kind == "agari":
        out: list[Any] = [WIN]
        for w in end.wins:
            info: list[Any] = [w.who, w.from_seat, w.who if w.pao is None or w.pao < 0 else w.pao]
            info.append(score_text(w, w.who == dealer))
            yaku = sorted((y for y in w.yaku or () if y[1] > 0), key=lambda y: yaku_rank(y[0]))
            info += [yaku_text(n, h) for n, h in yaku]
            out += [list(w.deltas) + [0] * (4 - players), info]
        return out
    if end.kind == "ryuukyoku" and not any(end.deltas):
        return ["全員聴牌" if all_tenpai else "全員不聴"]
    name = _DRAW_WRITE.get(end.kind)
    if name is None:
        raise ReplayError(f"unknown draw kind {end.kind!r}")
    if any(end.deltas):
        return [name, list(end.deltas) + [0] * (4 - players)]
    return [name]
