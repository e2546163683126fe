"""The ``mahjong`` package (2.1.0) as a scoring oracle: our hands in its terms, and a verdict.

Used by tests/rules/test_vs_mahjong.py (20,000 hands per run) and bench/vs_mahjong_long.py
(1,000,000). ``mahjong`` is configured to Tenhou's rules; ``differ`` returns None when both
agree on han, fu, the yaku with their han, and every payment, or a readable description.
The rule differences known between the two are documented in the test.
"""

from __future__ import annotations

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as MjMeld

from engine.rules.config import RuleConfig
from engine.rules.meld import MeldType
from engine.rules.scoring import HandResult, score_hand
from engine.rules.tiles import to_str
from tests.rules.handgen import Case


def _tenhou_options(three_player: bool) -> OptionalRules:
    """The oracle set to Tenhou's rules, for four or three players."""
    return OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        is_three_player=three_player,
    )


TENHOU_OPTIONS = _tenhou_options(three_player=False)
TENHOU_SANMA_OPTIONS = _tenhou_options(three_player=True)

#: our yaku id -> the name ``mahjong`` gives it
MAHJONG_NAMES = {
    "menzen_tsumo": "Menzen Tsumo",
    "riichi": "Riichi",
    "double_riichi": "Double Riichi",
    "ippatsu": "Ippatsu",
    "chankan": "Chankan",
    "rinshan": "Rinshan Kaihou",
    "haitei": "Haitei Raoyue",
    "houtei": "Houtei Raoyui",
    "renhou": "Renhou",
    "pinfu": "Pinfu",
    "tanyao": "Tanyao",
    "iipeikou": "Iipeiko",
    "yakuhai_haku": "Yakuhai (haku)",
    "yakuhai_hatsu": "Yakuhai (hatsu)",
    "yakuhai_chun": "Yakuhai (chun)",
    "jikaze_ton": "Yakuhai (seat wind east)",
    "jikaze_nan": "Yakuhai (seat wind south)",
    "jikaze_shaa": "Yakuhai (seat wind west)",
    "jikaze_pei": "Yakuhai (seat wind north)",
    "bakaze_ton": "Yakuhai (round wind east)",
    "bakaze_nan": "Yakuhai (round wind south)",
    "bakaze_shaa": "Yakuhai (round wind west)",
    "bakaze_pei": "Yakuhai (round wind north)",
    "sanshoku_doujun": "Sanshoku Doujun",
    "ittsu": "Ittsu",
    "chanta": "Chantai",
    "honroutou": "Honroutou",
    "toitoi": "Toitoi",
    "sanankou": "San Ankou",
    "sankantsu": "San Kantsu",
    "sanshoku_doukou": "Sanshoku Doukou",
    "chiitoitsu": "Chiitoitsu",
    "shousangen": "Shou Sangen",
    "honitsu": "Honitsu",
    "junchan": "Junchan",
    "ryanpeikou": "Ryanpeikou",
    "chinitsu": "Chinitsu",
    "kokushi_musou": "Kokushi Musou",
    "kokushi_musou_13": "Kokushi Musou Juusanmen Matchi",
    "chuuren_poutou": "Chuuren Poutou",
    "junsei_chuuren_poutou": "Daburu Chuuren Poutou",
    "suuankou": "Suu Ankou",
    "suuankou_tanki": "Suu Ankou Tanki",
    "daisangen": "Daisangen",
    "shousuushii": "Shousuushii",
    "daisuushii": "Dai Suushii",
    "ryuuiisou": "Ryuuiisou",
    "suukantsu": "Suu Kantsu",
    "tsuuiisou": "Tsuu Iisou",
    "chinroutou": "Chinroutou",
    "tenhou": "Tenhou",
    "chiihou": "Chiihou",
    "dora": "Dora",
    "aka": "Aka Dora",
    "ura": "Ura Dora",
}

_MJ_TYPE = {
    MeldType.CHII: MjMeld.CHI,
    MeldType.PON: MjMeld.PON,
    MeldType.DAIMINKAN: MjMeld.KAN,
    MeldType.KAKAN: MjMeld.KAN,
    MeldType.ANKAN: MjMeld.KAN,
}


MahjongArgs = tuple[list[int], int, list[MjMeld], list[int], HandConfig, list[int]]


def mahjong_args(case: Case, sanma: bool = False) -> MahjongArgs:
    """Arguments of ``HandCalculator.estimate_hand_value`` for one case (kita: a count)."""
    ctx = case.ctx
    tiles = list(case.concealed)
    melds = []
    for m in case.melds:
        if m.type == MeldType.KITA:
            continue
        tiles.extend(m.tiles)
        called = m.called if m.called >= 0 else None
        melds.append(MjMeld(_MJ_TYPE[m.type], list(m.tiles), m.opened, called))
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=ctx.riichi or ctx.double_riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        player_wind=ctx.seat_wind,
        round_wind=ctx.round_wind,
        options=TENHOU_SANMA_OPTIONS if sanma else TENHOU_OPTIONS,
        num_nuki_dora=ctx.kita,
    )
    return tiles, ctx.win_tile, melds, list(ctx.dora_indicators), config, list(ctx.ura_indicators)


def mahjong_value(case: Case, sanma: bool = False) -> object:
    tiles, win, melds, dora, config, ura = mahjong_args(case, sanma)
    return HandCalculator.estimate_hand_value(
        tiles, win, melds, dora, config, ura_dora_indicators=ura
    )


def describe(case: Case) -> str:
    melds = " ".join(f"{m.type.name.lower()}:{to_str(m.tiles)}" for m in case.melds)
    return f"{to_str(case.concealed)} {melds} win={to_str([case.ctx.win_tile])} {case.ctx}"


def _ours(result: HandResult) -> tuple[int, int, set[tuple[str, int]], tuple[int, int, int]]:
    yaku = {(MAHJONG_NAMES[y.name], y.han) for y in result.yaku}
    return result.han, result.fu, yaku, (result.ron, result.tsumo_dealer, result.tsumo_other)


def differ(case: Case, rules: RuleConfig) -> str | None:
    """None when both agree on this hand, else what differs."""
    ours = score_hand(case.concealed, case.melds, case.ctx, rules)
    theirs = mahjong_value(case, rules.sanma)
    error = getattr(theirs, "error", None)
    if ours is None or error is not None:
        if ours is None and error is not None:
            return None
        return f"ours={ours} theirs={error} :: {describe(case)}"
    han, fu, yaku, pay = _ours(ours)
    is_open = any(m.opened for m in case.melds)
    their_yaku = {(y.name, _han(y, is_open)) for y in theirs.yaku}  # type: ignore[attr-defined]
    cost = theirs.cost  # type: ignore[attr-defined]
    dealer = case.ctx.seat_wind == 27
    if case.ctx.tsumo:
        their_pay = (0, 0, cost["main"]) if dealer else (0, cost["main"], cost["additional"])
        pay = (0, pay[1], pay[2])
    else:
        their_pay = (cost["main"], 0, 0)
        pay = (pay[0], 0, 0)
    their_han, their_fu = theirs.han, theirs.fu  # type: ignore[attr-defined]
    if ours.yakuman:
        fu = their_fu = 0  # fu is meaningless beside a yakuman
    if (han, fu, yaku, pay) != (their_han, their_fu, their_yaku, their_pay):
        return (
            f"ours han={han} fu={fu} {sorted(yaku)} {pay}\n"
            f"theirs han={their_han} fu={their_fu} {sorted(their_yaku)} {their_pay}\n"
            f"  :: {describe(case)}"
        )
    return None


def _han(y: object, is_open: bool) -> int:
    """The han ``mahjong`` counted for one of its yaku in this hand."""
    opened = int(getattr(y, "han_open", 0) or 0)
    return opened if is_open and opened else int(getattr(y, "han_closed", 0))
