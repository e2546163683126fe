"""A built-in bot as an mjai player: mjai events in, one mjai reaction out (pure, no I/O).

``MjaiPlayer(bot).react(event)`` follows one seat through the mjai stream (start_game gives
its ``id``), keeps that seat's knowledge as a ``SeatView`` would hold it, and whenever the
event asks something of the seat (its own tsumo, another seat's discard it could call or
ron, its own reach or call that must be followed by a discard) builds the legal choices as
an engine inquiry, asks the bot, and writes the answer as mjai. Otherwise ``{"type":"none"}``.

mjai names kinds, not physical tiles: each tile the seat first sees gets a free physical id
of its kind (the red id for a red five), so views built here look like the engine's own.
Not offered: kyuushu kyuuhai, chankan, daiminkan, and a closed kan after riichi (each is
legal to decline, so a bot here only loses those options, never plays an illegal move).
"""

from __future__ import annotations

from typing import Any

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import Action, ActionType, Option, TenpaiInfo
from engine.bot import Bot
from engine.bot import mjai_labels as labels
from engine.bot.strong import argmax
from engine.bot.view import SeatView
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.hand import tenpai_discards, waits
from engine.rules.meld import Meld, MeldType
from engine.rules.scoring import score_hand
from engine.rules.scoring.preview import preview_value
from engine.rules.scoring.result import WinContext
from engine.rules.tiles import NUM_KINDS, WINDS, mjai_kind, to_mjai

Event = dict[str, Any]
NONE: Event = {"type": "none"}
#: ordinary draws in a four-player hand (136 - 14 dead wall - 52 dealt)
LIVE_DRAWS = 70


class Ids:
    """Physical ids for tiles named by kind: each first sighting takes a free copy."""

    def __init__(self, red: frozenset[int]) -> None:
        self.red = red
        self.used: set[int] = set()

    def take(self, name: str) -> int:
        kind, is_red = mjai_kind(name)
        copies = range(kind * 4, kind * 4 + 4)
        pick = [t for t in copies if t not in self.used and (t in self.red) == is_red]
        tile = pick[0] if pick else kind * 4 + 3  # an inconsistent log: reuse, never crash
        self.used.add(tile)
        return tile


class MjaiPlayer:
    """One seat's side of an mjai game."""

    def __init__(
        self,
        bot: Bot,
        rules: RuleConfig = TENHOU_HANCHAN,
        seat: int | None = None,
        meta: bool = False,
    ) -> None:
        self.bot = bot
        #: answer decisions with Mortal's ``meta`` (q_values per label, mask_bits: see
        #: engine/bot/mjai_labels.py) when the bot scores its choices (the strong bot), so
        #: a review can read this process as it reads Mortal
        self.meta = meta
        self._meta: Event | None = None
        self.rules = rules
        #: a seat given by the host's command line wins over start_game's ``id`` (mjai.app
        #: starts ``bot.py PLAYER_ID`` and its log engine sends the game's index as ``id``)
        self.fixed = seat is not None
        self.seat = seat or 0
        self.scores = [rules.start_points] * 4
        self._kyoku: Event = {}
        self.ids = Ids(rules.red)
        self.hand: list[int] = []
        self.drawn: int | None = None
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.rivers: list[list[int]] = [[], [], [], []]
        self.riichi = [-1, -1, -1, -1]
        self.reaching = [False] * 4
        self.dora: list[int] = []
        self.draws = 0
        self.furiten = False
        self.kuikae: set[int] = set()
        #: the discard chosen with a reach, played when the reach comes back
        self.reach_tile: int | None = None

    # ------------------------------------------------------------ the stream

    def react(self, event: Event) -> Event:
        """Apply ``event``; the seat's reaction to it (``{"type":"none"}`` when nothing)."""
        kind = event.get("type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            return NONE
        self._meta = None
        answer: Event | None = handler(event)
        answer = answer if answer is not None else NONE
        return answer if self._meta is None else {**answer, "meta": self._meta}

    def _on_start_game(self, ev: Event) -> None:
        if not self.fixed:
            self.seat = int(ev.get("id", self.seat))

    def _on_start_kyoku(self, ev: Event) -> None:
        self._kyoku = ev
        self.scores = [int(s) for s in ev["scores"]]
        self.ids = Ids(self.rules.red)
        self.hand = [self.ids.take(p) for p in ev["tehais"][self.seat]]
        self.drawn = None
        self.melds = [[], [], [], []]
        self.rivers = [[], [], [], []]
        self.riichi = [-1, -1, -1, -1]
        self.reaching = [False] * 4
        self.dora = [self.ids.take(ev["dora_marker"])]
        self.draws = 0
        self.furiten = False
        self.kuikae = set()
        self.reach_tile = None

    def _on_dora(self, ev: Event) -> None:
        self.dora.append(self.ids.take(ev["dora_marker"]))

    def _on_reach_accepted(self, ev: Event) -> None:
        actor = ev["actor"]
        self.scores[actor] -= 1000

    def _on_tsumo(self, ev: Event) -> Event | None:
        self.draws += 1
        if ev["actor"] != self.seat:
            return None
        tile = self.ids.take(ev["pai"])
        self.hand.append(tile)
        self.drawn = tile
        return self._turn()

    def _on_reach(self, ev: Event) -> Event | None:
        actor = ev["actor"]
        self.reaching[actor] = True
        if actor != self.seat:
            return None
        options = self._riichi_discards()
        tile = self.reach_tile if self.reach_tile in options else None
        if tile is None:  # a reach the host made for us: the bot picks among tenpai discards
            single = SinglePlayerInquiry(self.seat, skip=False)
            single.add(Action(ActionType.DISCARD, [self._option(t) for t in options]))
            a, o = self._ask(single)
            tile = single.actions[a].options[o].tiles[0]
        return self._dahai(tile)

    def _on_dahai(self, ev: Event) -> Event | None:
        actor = ev["actor"]
        if actor == self.seat:
            tile = self._own(ev["pai"], prefer=self.drawn if ev.get("tsumogiri") else None)
            self.hand.remove(tile)
            self.drawn = None
            self.kuikae = set()
            if self.riichi[actor] < 0 and not self.reaching[actor]:
                self.furiten = False
        else:
            tile = self.ids.take(ev["pai"])
        self.rivers[actor].append(tile)
        if self.reaching[actor]:
            self.reaching[actor] = False
            self.riichi[actor] = len(self.rivers[actor]) - 1
        if actor == self.seat:
            return None
        return self._claim(actor, tile)

    def _on_chi(self, ev: Event) -> Event | None:
        return self._call(ev, MeldType.CHII)

    def _on_pon(self, ev: Event) -> Event | None:
        return self._call(ev, MeldType.PON)

    def _on_daiminkan(self, ev: Event) -> Event | None:
        self._call(ev, MeldType.DAIMINKAN)
        return None

    def _on_ankan(self, ev: Event) -> None:
        actor = ev["actor"]
        own = tuple(self._take(actor, p) for p in ev["consumed"])
        self.melds[actor].append(Meld(MeldType.ANKAN, tuple(sorted(own))))
        if actor == self.seat:
            self.drawn = None

    def _on_kakan(self, ev: Event) -> None:
        actor = ev["actor"]
        added = self._take(actor, ev["pai"])
        kind = added >> 2
        melds = self.melds[actor]
        for i, m in enumerate(melds):
            if m.type == MeldType.PON and m.tiles[0] >> 2 == kind:
                tiles = tuple(sorted((*m.tiles, added)))
                melds[i] = Meld(MeldType.KAKAN, tiles, m.called, m.from_seat, added)
        if actor == self.seat:
            self.drawn = None

    def _on_hora(self, ev: Event) -> None:
        deltas = ev.get("deltas")
        if deltas:
            self.scores = [s + d for s, d in zip(self.scores, deltas, strict=False)]

    _on_ryukyoku = _on_hora

    # ------------------------------------------------------------ bookkeeping

    def _own(self, name: str, prefer: int | None = None) -> int:
        """The id in the seat's hand for the mjai name (``prefer`` when it matches)."""
        kind, is_red = mjai_kind(name)
        if prefer is not None and prefer >> 2 == kind and (prefer in self.rules.red) == is_red:
            return prefer
        for t in self.hand:
            if t >> 2 == kind and (t in self.rules.red) == is_red:
                return t
        for t in self.hand:
            if t >> 2 == kind:
                return t
        raise ValueError(f"seat {self.seat} holds no {name}")

    def _take(self, actor: int, name: str) -> int:
        """A tile leaving ``actor``'s concealed hand (ours: from the hand; others: new id)."""
        if actor != self.seat:
            return self.ids.take(name)
        tile = self._own(name)
        self.hand.remove(tile)
        return tile

    def _call(self, ev: Event, kind: MeldType) -> Event | None:
        actor, target = ev["actor"], ev["target"]
        river = self.rivers[target]
        called = river[-1] if river else self.ids.take(ev["pai"])
        own = tuple(self._take(actor, p) for p in ev["consumed"])
        meld = Meld(kind, tuple(sorted((*own, called))), called, target)
        self.melds[actor].append(meld)
        if actor != self.seat or kind == MeldType.DAIMINKAN:
            return None
        self.kuikae = _kuikae(called >> 2, [t >> 2 for t in own], kind)
        options = [
            t for t in _distinct(self.hand, self.drawn, self.rules.red) if t >> 2 not in self.kuikae
        ]
        single = SinglePlayerInquiry(self.seat, skip=False)
        single.add(Action(ActionType.DISCARD, [self._option(t) for t in options]))
        a, o = self._ask(single)
        return self._dahai(single.actions[a].options[o].tiles[0])

    # ------------------------------------------------------------ questions

    def _turn(self) -> Event | None:
        single = SinglePlayerInquiry(self.seat, skip=False)
        in_riichi = self.riichi[self.seat] >= 0
        drawn = self.drawn
        assert drawn is not None
        if self._can_win(drawn, tsumo=True):
            single.add(Action(ActionType.TSUMO, [Option((drawn,))]))
        discards = [drawn] if in_riichi else _distinct(self.hand, drawn, self.rules.red)
        single.add(Action(ActionType.DISCARD, [self._option(t) for t in discards]))
        if not in_riichi:
            riichi = self._riichi_discards() if self._may_riichi() else []
            if riichi:
                single.add(Action(ActionType.RIICHI, [self._option(t) for t in riichi]))
            self._kans(single)
        a, o = self._ask(single)
        action = single.actions[a]
        tiles = action.options[o].tiles
        me = self.seat
        if action.type == ActionType.TSUMO:
            return {"type": "hora", "actor": me, "target": me, "pai": self._name(drawn)}
        if action.type == ActionType.RIICHI:
            self.reach_tile = tiles[0]
            return {"type": "reach", "actor": me}
        if action.type == ActionType.ANKAN:
            return {"type": "ankan", "actor": me, "consumed": [self._name(t) for t in tiles]}
        if action.type == ActionType.KAKAN:
            kind = tiles[0] >> 2
            pon = next(m for m in self.melds[me] if m.type == MeldType.PON and m.kind == kind)
            consumed = [self._name(t) for t in pon.tiles]
            return {"type": "kakan", "actor": me, "pai": self._name(tiles[0]), "consumed": consumed}
        return self._dahai(tiles[0])

    def _ask(self, single: SinglePlayerInquiry, called: int = -1) -> tuple[int, int]:
        """The bot's choice; with ``meta`` on, its scores per Mortal label kept for the reply
        (``called``: the discard a chi would take)."""
        view = self.view()
        scores = getattr(self.bot, "scores", None)
        if not self.meta or scores is None:
            return self.bot.choose(single, view)
        values: list[list[float]] = scores(single, view)
        pairs = []
        for action, row in zip(single.actions, values, strict=True):
            for option, value in zip(action.options, row, strict=True):
                lab = labels.label(action.type, option.tiles, called, 4, self.rules.red)
                if lab is not None:
                    pairs.append((lab, value))
        mask, q = labels.encode(pairs)
        self._meta = {"q_values": q, "mask_bits": mask}
        return argmax(values)

    def _claim(self, actor: int, tile: int) -> Event | None:
        if self.reaching[self.seat]:
            return None
        single = SinglePlayerInquiry(self.seat)
        kind = tile >> 2
        if self._can_win(tile, tsumo=False):
            single.add(Action(ActionType.RON, [Option((tile,))]))
        elif kind in waits(self._counts()):
            self.furiten = True  # a passed winning tile (no yaku counts as passing too)
        last = self.draws >= LIVE_DRAWS
        if self.riichi[self.seat] < 0 and not last:
            same = [t for t in self.hand if t >> 2 == kind]
            if len(same) >= 2:
                single.add(Action(ActionType.PON, [Option(tuple(same[:2]))]))
            if actor == (self.seat - 1) % 4 and kind < 27:
                chiis = self._chiis(kind)
                if chiis:
                    single.add(Action(ActionType.CHII, [Option(c) for c in chiis]))
        if len(single.actions) == 1:
            return None
        a, o = self._ask(single, tile)
        action = single.actions[a]
        own = action.options[o].tiles
        if action.type != ActionType.RON and single.find(ActionType.RON) >= 0:
            self.furiten = True  # a ron declined
        me, pai = self.seat, self._name(tile)
        if action.type == ActionType.RON:
            return {"type": "hora", "actor": me, "target": actor, "pai": pai}
        if action.type in (ActionType.PON, ActionType.CHII):
            name = "pon" if action.type == ActionType.PON else "chi"
            consumed = [self._name(t) for t in own]
            return {"type": name, "actor": me, "target": actor, "pai": pai, "consumed": consumed}
        return None

    def _chiis(self, kind: int) -> list[tuple[int, ...]]:
        n = kind % 9
        out = []
        for low in (kind - 2, kind - 1, kind):
            if low < kind - n or low + 2 > kind - n + 8:
                continue
            need = [k for k in (low, low + 1, low + 2) if k != kind]
            picked = [next((t for t in self.hand if t >> 2 == k), -1) for k in need]
            if -1 in picked:
                continue
            # a call must leave a legal discard (kuikae)
            rest = list(self.hand)
            for t in picked:
                rest.remove(t)
            banned = _kuikae(kind, need, MeldType.CHII)
            if any(t >> 2 not in banned for t in rest):
                out.append(tuple(picked))
        return out

    def _kans(self, single: SinglePlayerInquiry) -> None:
        if self.draws >= LIVE_DRAWS:
            return
        counts = self._counts()
        ankans = [
            tuple(t for t in self.hand if t >> 2 == k) for k in range(NUM_KINDS) if counts[k] == 4
        ]
        if ankans:
            single.add(Action(ActionType.ANKAN, [Option(tuple(sorted(a))) for a in ankans]))
        kakans = [
            (t,)
            for m in self.melds[self.seat]
            if m.type == MeldType.PON
            for t in self.hand
            if t >> 2 == m.kind
        ]
        if kakans:
            single.add(Action(ActionType.KAKAN, [Option(k) for k in kakans]))

    def _may_riichi(self) -> bool:
        me = self.seat
        closed = not any(m.opened for m in self.melds[me])
        return closed and self.scores[me] >= 1000 and LIVE_DRAWS - self.draws >= 4

    def _riichi_discards(self) -> list[int]:
        ready = tenpai_discards(self._counts())
        return [t for t in _distinct(self.hand, self.drawn, self.rules.red) if t >> 2 in ready]

    def _can_win(self, tile: int, *, tsumo: bool) -> bool:
        concealed = self.hand if tsumo else [*self.hand, tile]
        if not tsumo:
            if self.furiten:
                return False
            river = {t >> 2 for t in self.rivers[self.seat]}
            if river & set(waits(self._counts())):
                return False
        ctx = self._context(tile, tsumo)
        return score_hand(concealed, self.melds[self.seat], ctx, self.rules) is not None

    def _context(self, tile: int, tsumo: bool) -> WinContext:
        riichi = self.riichi[self.seat] >= 0
        last = self.draws >= LIVE_DRAWS
        return WinContext(
            win_tile=tile,
            tsumo=tsumo,
            seat_wind=self._seat_wind(),
            round_wind=self._round_wind(),
            riichi=riichi,
            haitei=last and tsumo,
            houtei=last and not tsumo,
            dora_indicators=tuple(self.dora),
        )

    def _option(self, tile: int) -> Option:
        """A discard option whose tenpai info is worked out when the bot reads it."""

        def info() -> tuple[TenpaiInfo, ...]:
            rest = list(self.hand)
            rest.remove(tile)
            counts = [0] * NUM_KINDS
            for t in rest:
                counts[t >> 2] += 1
            out = []
            ctx = self._context(-1, False)
            for k in waits(counts):
                r = preview_value(rest, self.melds[self.seat], k, ctx, self.rules)
                if r is None:
                    out.append(TenpaiInfo(k, 0, 0, 0, 0))
                else:
                    out.append(TenpaiInfo(k, r.han, r.fu, r.yakuman, r.ron))
            return tuple(out)

        return Option((tile,), info)

    def _dahai(self, tile: int) -> Event:
        tsumogiri = tile == self.drawn
        return {
            "type": "dahai",
            "actor": self.seat,
            "pai": self._name(tile),
            "tsumogiri": tsumogiri,
        }

    def _name(self, tile: int) -> str:
        return to_mjai(tile, self.rules.red)

    def _counts(self) -> list[int]:
        counts = [0] * NUM_KINDS
        for t in self.hand:
            counts[t >> 2] += 1
        return counts

    def _round_wind(self) -> int:
        return 27 + "ESWN".index(self._kyoku.get("bakaze", "E"))

    def _seat_wind(self) -> int:
        oya = int(self._kyoku.get("oya", 0))
        return WINDS[(self.seat - oya) % 4]

    def view(self) -> SeatView:
        """The seat's knowledge now, as ``engine.bot.seat_view`` gives it in the engine."""
        ev = self._kyoku
        wind = "ESWN".index(ev.get("bakaze", "E"))
        return SeatView(
            seat=self.seat,
            rules=self.rules,
            hand=tuple(self.hand),
            drawn=self.drawn,
            melds=tuple(tuple(m) for m in self.melds),
            rivers=tuple(tuple(r) for r in self.rivers),
            riichi=tuple(self.riichi),
            dora_indicators=tuple(self.dora),
            scores=tuple(self.scores),
            kyoku=wind * 4 + int(ev.get("kyoku", 1)) - 1,
            honba=int(ev.get("honba", 0)),
            kyotaku=int(ev.get("kyotaku", 0)),
            round_wind=self._round_wind(),
            seat_wind=self._seat_wind(),
            remaining=max(0, LIVE_DRAWS - self.draws),
        )


def _distinct(hand: list[int], drawn: int | None, red: frozenset[int]) -> list[int]:
    """One discard per (kind, red) in hand, the drawn tile on its own, as the engine lists."""
    seen: set[tuple[int, bool]] = set()
    out = []
    for t in sorted(hand):
        if t == drawn:
            continue
        key = (t >> 2, t in red)
        if key not in seen:
            seen.add(key)
            out.append(t)
    if drawn is not None:
        out.append(drawn)
    return out


def _kuikae(called: int, own: list[int], kind: MeldType) -> set[int]:
    """Kinds that may not be discarded right after the call (the called kind, and for a
    ryanmen chii the kind at the other end)."""
    banned = {called}
    if kind == MeldType.CHII:
        low, high = min(own), max(own)
        if high - low == 1:
            if called == low - 1 and high % 9 != 8:
                banned.add(high + 1)
            if called == high + 1 and low % 9 != 0:
                banned.add(low - 1)
    return banned
