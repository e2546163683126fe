"""Rule configuration: one frozen record, Tenhou's rules by default, switches for variants."""

from __future__ import annotations

from functools import cached_property

import msgspec

from engine.rules.tiles import red_tiles


class RuleConfig(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    """Everything a table may vary. Defaults are Tenhou's 4-player hanchan (鳳南喰赤)."""

    players: int = 4
    #: 1 = tonpuusen (East only), 2 = hanchan (East + South)
    winds: int = 2
    #: red fives per suit (man, pin, sou)
    aka: tuple[int, int, int] = (1, 1, 1)
    kuitan: bool = True
    start_points: int = 25000
    #: points to reach for the game to end in the extension rounds, and the oka base
    target_points: int = 30000
    #: results count from target_points, the difference to the start going to the top
    #: (oka, Tenhou); False: from start_points, no oka (Mahjong Soul's count_point)
    oka: bool = True
    uma: tuple[int, ...] = (20, 10, -10, -20)
    min_han: int = 1
    kiriage: bool = False
    renhou: bool = False
    #: 13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii as double yakuman
    double_yakuman: bool = False
    kazoe_yakuman: bool = True
    #: a double-wind (seat and round wind) pair is worth 4 fu (Tenhou) or 2
    double_wind_pair_fu: int = 4
    open_pinfu_ron_fu: int = 30
    riichi_min_tiles: int = 4
    tenpai_payment: int = 3000
    honba_value: int = 300
    nagashi_mangan: bool = True
    kyuushu_kyuuhai: bool = True
    suufon_renda: bool = True
    suucha_riichi: bool = True
    suukaikan: bool = True
    #: three rons on one discard abort the hand (Tenhou); otherwise all three win
    sanchahou: bool = True
    double_ron: bool = True
    pao: bool = True
    #: kokushi may ron a closed kan of its waiting tile (Mahjong Soul; not Tenhou)
    kokushi_chankan_ankan: bool = False
    #: the last-hand dealer first with target_points ends the match after a win ...
    agariyame: bool = True
    #: ... or after a tenpai draw (Tenhou: 7 logged matches end so)
    tenpaiyame: bool = True
    #: a score below zero ends the game
    tobi: bool = True
    #: play on into the next wind while nobody has target_points
    extension: bool = True
    #: Tenhou shows the riichi sticks left at the end to the top player
    leftover_sticks_to_top: bool = True
    #: points a seat needs to declare riichi (M-League: none)
    riichi_min_points: int = 1000
    #: open kans (daiminkan, kakan) turn their dora after the next discard ("after_discard",
    #: Tenhou, Mahjong Soul) or at once like an ankan ("immediate": M-League, WRC)
    open_kan_dora: str = "after_discard"
    #: yakuman whose last call makes its feeder liable (WRC adds suukantsu: the fourth kan
    #: made by daiminkan on a discard)
    pao_yaku: tuple[str, ...] = ("daisangen", "daisuushii")
    #: what the liable seat of a pao pays on a composite yakuman: the whole hand ("hand":
    #: Tenhou) or only the liable yakuman's share ("yakuman": Mahjong Soul)
    pao_scope: str = "hand"
    #: the most yakuman one hand is paid (0: no cap; WRC: 1)
    yakuman_cap: int = 0
    #: seats tied on points share their placements' uma and oka ("split": M-League, WRC) or
    #: the earlier starting seat ranks higher ("seat": Tenhou)
    uma_ties: str = "seat"
    #: final results in whole thousands, the top taking the rest (Tenhou's logs until
    #: 2021); False: exact to 0.1 (Tenhou since 2022, most other rule sets)
    round_points: bool = True
    #: at an exhaustive draw each tenpai seat not in riichi declares tenpai or noten; a noten
    #: declaration pays and loses the deal as noten (M-League's 聴牌宣言)
    tenpai_declaration: bool = False
    #: after riichi, an ankan of the tile just drawn is offered when it leaves the waits as
    #: they were and its kind is a triplet in every reading of every winning hand
    #: ("readings": Tenhou), when it leaves the waits as they were ("waits"), or never
    riichi_ankan: str = "readings"
    #: a rinshan kaihou on the wall's last tile scores haitei too (Tenhou: never)
    rinshan_haitei: bool = False
    #: a wait whose four copies are all the seat's own, its melds included (a tanki on the
    #: kind of its pon), is no wait: noten at the draw. Tenhou counts only the concealed
    #: hand (keishiki tenpai), so such a hand is tenpai
    karaten_melds: bool = False

    @cached_property
    def red(self) -> frozenset[int]:
        """Physical ids that are red fives under this rule."""
        return red_tiles(self.aka)

    @cached_property
    def red_copies(self) -> int:
        """Bit 4 x suit + copy of each red five (the lowest copies are the red ones): the
        scorer's mask over its tile code's copy bits, kept here so a hand reads it as one
        attribute."""
        return sum(((1 << n) - 1) << 4 * suit for suit, n in enumerate(self.aka))

    @cached_property
    def scoring_ints(self) -> tuple[int, int, int, int, int, int, int, int, int]:
        """What the fast scorer reads of these rules on every hand, as one attribute (each
        attribute read costs the compiled scorer a generic lookup): red_copies, players,
        double_yakuman, min_han, kiriage, double_wind_pair_fu, kazoe_yakuman,
        open_pinfu_ron_fu, kuitan."""
        return (
            self.red_copies, self.players, int(self.double_yakuman), self.min_han,
            int(self.kiriage), self.double_wind_pair_fu, int(self.kazoe_yakuman),
            self.open_pinfu_ron_fu, int(self.kuitan),
        )  # fmt: skip

    @cached_property
    def sanma(self) -> bool:
        """Three players (a cached attribute: every turn reads it)."""
        return self.players == 3

    @cached_property
    def option_after(self) -> tuple[int, ...]:
        """For each physical id, the lowest id that is a new discard option after it in a
        sorted hand: the next copy past a red five (it is its own option), else the next
        kind. One table read per tile instead of a set test and a branch."""
        red = self.red
        return tuple(t + 1 if t in red else (t | 3) + 1 for t in range(136))


TENHOU_HANCHAN = RuleConfig()
TENHOU_TONPUU = RuleConfig(winds=1)
#: Tenhou's 3-player rules as its logs show them: no chii (in the engine), 2m-8m removed,
#: kita, tsumo loss, noten 2000 in all, honba 200, uma 20/0/-20, no abort on three riichi
#: or three same winds
TENHOU_SANMA_HANCHAN = RuleConfig(
    players=3,
    aka=(0, 1, 1),
    start_points=35000,
    target_points=40000,
    uma=(20, 0, -20),
    tenpai_payment=2000,
    honba_value=200,
    suucha_riichi=False,
    suufon_renda=False,
    riichi_min_tiles=3,
)
TENHOU_SANMA_TONPUU = msgspec.structs.replace(TENHOU_SANMA_HANCHAN, winds=1)

#: the rule sets a table can be opened with (the server's lobby lists them)
PRESETS: dict[str, RuleConfig] = {
    "tenhou-hanchan": TENHOU_HANCHAN,
    "tenhou-tonpuu": TENHOU_TONPUU,
    "tenhou-sanma-hanchan": TENHOU_SANMA_HANCHAN,
    "tenhou-sanma-tonpuu": TENHOU_SANMA_TONPUU,
}

#: Mahjong Soul's ranked 4-player rules where they differ from Tenhou's (docs/rules.md):
#: results are the score above the 25,000 start (no oka) plus uma 15/5/-5/-15; 30,000 still
#: ends the match (the game's matchmode table: count_point, buchang, back_point)
MAHJONGSOUL_HANCHAN = RuleConfig(
    oka=False,
    uma=(15, 5, -5, -15),
    double_yakuman=True,
    pao_scope="yakuman",
    sanchahou=False,
    kokushi_chankan_ankan=True,
    round_points=False,
)
#: M-League (docs/rules.md): no abortive draws, atamahane, no bust, kiriage, no double or
#: kazoe yakuman, no agari-/tenpai-yame, no West, kan dora at once, split ties, riichi
#: at any score and with no draw left
MLEAGUE = RuleConfig(
    uma=(30, 10, -10, -30),
    kiriage=True,
    double_yakuman=False,
    kazoe_yakuman=False,
    riichi_min_tiles=0,
    riichi_min_points=0,
    kyuushu_kyuuhai=False,
    suufon_renda=False,
    suucha_riichi=False,
    suukaikan=False,
    sanchahou=False,
    double_ron=False,
    agariyame=False,
    tenpaiyame=False,
    tobi=False,
    extension=False,
    open_kan_dora="immediate",
    uma_ties="split",
    round_points=False,
    tenpai_declaration=True,
)
#: World Riichi Championship rules (docs/rules.md)
WRC = RuleConfig(
    aka=(0, 0, 0),
    start_points=30000,
    target_points=30000,
    uma=(15, 5, -5, -15),
    kiriage=True,
    renhou=True,
    kazoe_yakuman=False,
    yakuman_cap=1,
    nagashi_mangan=False,
    kyuushu_kyuuhai=False,
    suufon_renda=False,
    suucha_riichi=False,
    suukaikan=False,
    sanchahou=False,
    double_ron=False,
    agariyame=False,
    tenpaiyame=False,
    tobi=False,
    extension=False,
    leftover_sticks_to_top=False,
    open_kan_dora="immediate",
    pao_yaku=("daisangen", "daisuushii", "suukantsu"),
    uma_ties="split",
    round_points=False,
)
#: Mahjong Soul's ranked 3-player hanchan (docs/rules.md): Tenhou's sanma table (tsumo loss,
#: kita, honba 200, noten 2000, no four-winds or four-riichi abort) with results counted
#: from the 35,000 start (no oka; 40,000 still ends the match) and uma 15/0/-15, and the
#: 4-player differences (double yakuman, per-yakuman pao, exact results, kokushi robs ankan)
MAHJONGSOUL_SANMA = msgspec.structs.replace(
    TENHOU_SANMA_HANCHAN,
    oka=False,
    uma=(15, 0, -15),
    double_yakuman=True,
    pao_scope="yakuman",
    sanchahou=False,
    kokushi_chankan_ankan=True,
    round_points=False,
)
PRESETS.update(
    {
        "mahjongsoul-hanchan": MAHJONGSOUL_HANCHAN,
        "mahjongsoul-sanma": MAHJONGSOUL_SANMA,
        "mleague": MLEAGUE,
        "wrc": WRC,
    }
)

#: what the lobby shows for each preset (the key stays the room's and the record's name)
LABELS: dict[str, str] = {
    "tenhou-hanchan": "Tenhou 4p hanchan (東南戦)",
    "tenhou-tonpuu": "Tenhou 4p tonpuusen (東風戦)",
    "tenhou-sanma-hanchan": "Tenhou sanma hanchan (三麻東南戦)",
    "tenhou-sanma-tonpuu": "Tenhou sanma tonpuusen (三麻東風戦)",
    "mahjongsoul-hanchan": "Mahjong Soul 4p hanchan (雀魂)",
    "mahjongsoul-sanma": "Mahjong Soul 3p hanchan (雀魂三麻)",
    "mleague": "M-League (Mリーグ)",
    "wrc": "World Riichi Championship (WRC)",
}
