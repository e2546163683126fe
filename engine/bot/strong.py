"""The strong bot: efficiency weighed by value, calls with a yaku, defence by expected value.

Every discard candidate gets its shanten and its ukeire counted against the tiles this seat
can see (``SeatView.visible``), a hand value estimate (dora, reds, yakuhai, and for a tenpai
the engine's guaranteed ron value per wait; a furiten wait counts at its tsumo share),
and, when someone threatens (a riichi or a fast open hand, see ``defence``), the expected
points lost by dealing in. With no threat it
plays the most efficient discard, value breaking near-ties; with one it plays the discard
of the highest expected value: win chance x hand value minus deal-in chance x threat value
(a tenpai's win chance is a race of its live waits against the threats over the draws left,
``Table.race``), so a cheap far hand folds onto genbutsu and suji while a good tenpai
pushes; a win counts the riichi sticks on the table, and near the end of the wall a tenpai
also counts the noten payments it saves. Riichi unless
the dama hand is already big enough or the table standing says a quiet win is better; calls
only when they advance the hand and keep a yaku (yakuhai pons; tanyao and honitsu calls are
written but switched off by ``OPEN_CALLS``, see there). In the last hands the standings scale how
much a deal-in costs (a leader folds earlier, the last seat pushes harder).

``StrongBot.scores`` writes all of this as one comparable score per legal choice (the scale
is below ``KANS``) and ``choose`` plays their argmax, so a review reads what the bot weighs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import xiangting

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import Action, ActionType, Option
from engine.bot.defence import Threat, danger, threats
from engine.bot.easy import shanten_and_ukeire
from engine.bot.view import SeatView
from engine.rules.tiles import DRAGONS, NUM_KINDS, SIMPLES, YAOCHUU

#: taken at once when offered (TENPAI: at an exhaustive draw a tenpai hand is declared, paid)
_WINS = (
    ActionType.TSUMO,
    ActionType.RON,
    ActionType.NEXT_ROUND,
    ActionType.KITA,
    ActionType.TENPAI,
)

#: tuned by bench.bots: how much more a far (not tenpai) hand weighs a deal-in, since it must
#: survive more discards before it can win
FAR_PUSH = 1.6
#: a closed 1-shanten without dora keeps its riichi chance instead of a cheap call
KEEP_CLOSED = True
#: 1-shanten discards within this share of the best ukeire get the two-step shape count
SHAPE_SHARE = 0.6
# (the same count one step deeper at 2-shanten was tried in December 2026: worse against
# three easy bots in bench.bots, 2.32 against 2.26 over 400 hanchan on a tuning seed)
#: a tenpai's win chance per waiting tile left (against a threat)
TENPAI_WIN = 0.05
#: a tenpai's win chance as a race against the threats (see ``Table.race``), in place of
#: TENPAI_WIN per tile: on tuning seeds 600+601 (400 hanchan each) 2.105 against 2.175
#: (easy) and 2.355 against 2.44 (baseline); TENPAI_WIN 0.08 measured 2.135 / 2.355 and
#: 0.12 2.11 / 2.37 (2026-12-07): the per-tile chance folded a live tenpai too often
RACE = True
#: tiles a go-around shows that could be the seat's winning one (its draw, others' discards);
#: 3.5 measured 2.15 (easy, seed 601 only) and 2.38 / 2.35 (baseline, 600 / 601): no better
SEES = 2.5
#: a threat's chance per go-around of winning first, times its tenpai chance
RIVAL = 0.12
#: a 1-shanten's win chance as two steps (``Table.two_step``): reach tenpai, then the race
#: on its waits (the two-step shape count's average, else ONE_WAITS). Off: with the race on,
#: tuning seed 600 (400 hanchan) measured 2.13 against 2.07 (easy), more deal-ins
ONE_RACE = False
ONE_WAITS = 5.0
#: a 1-shanten's win chance per tile of ukeire (against a threat), and its cap (0.008 and
#: 0.18 with the race, seeds 600+601: 2.095 against 2.105 (easy), 2.43 against 2.355
#: (baseline): a 1-shanten that folds sooner loses to bots that fold)
ONE_WIN = 0.012
ONE_CAP = 0.3
#: what a riichi stick on the table adds to a win, in the push/fold balance (a riichi's
#: own stick included: 0 until December 2026, when the full 1000 measured better against
#: the frozen baseline in bench.bots)
STICK = 1000
#: a tenpai whose dama ron is worth this much (non-dealer; dealer x1.5) stays dama: riichi
#: turns a dama mangan into a haneman often enough, and a table that does not fold pays it
DAMA = 12000
#: calls for tanyao or honitsu (yakuhai pons are always considered): off, because in
#: bench.bots an open cheap hand that can no longer riichi lost more than its speed won
OPEN_CALLS = False
#: threats below this tenpai chance (open hands early on) get light defence: the safest of
#: the discards within NEAR of the best ukeire at the best shanten
LIGHT = 0.5
NEAR = 0.75
#: what staying tenpai is worth at the end of the wall against a threat (the noten payments
#: of an exhaustive draw), reached in full with no draw left and from KEITEN_DRAWS draws on
KEITEN = 1200.0
KEITEN_DRAWS = 5.0
#: a furiten tenpai wins by tsumo only: its waits count this share of their copies
FURITEN = 0.35
#: push/fold in placement terms (see ``Placement``); False: the flat last-hand ``_caution``.
#: Off: on tuning seed 503 (400 hanchan each) it measured 2.25 against 2.21 (easy) and 2.41
#: against 2.39 (baseline), within the noise but the wrong way both times (measured with an
#: even-table rate 3/2 too high, fixed since and not measured again)
PLACEMENT = False
#: the spread of a seat's score against another's per hand still to play, in points
SIGMA = 6000.0
#: a closed hand's rough value before dora (a riichi's win: riichi, tsumo, ura, pinfu...);
#: 4000 with the race, seeds 600+601: 2.11 against 2.105 (easy), 2.375 against 2.355
CLOSED = 2600.0
#: closed and added kans outside riichi (a riichi's ankan is always taken)
KANS = True
_FOUR = xiangting.PlayerCount.FOUR

# The scale of ``StrongBot.scores`` (engine/review grades a choice by its gap to the best,
# docs/review.md): roughly points. A win offered scores WIN; one shanten is SHANTEN; a
# tile of ukeire 10 (a tenpai: its ukeire x value / 100); against a threat the expected
# value in points. Riichi is RIICHI above the same discard when the bot wants it with that
# discard (its best one), else RIICHI below; a kan it would not make, a call not worth
# making, a discard outside the nearly most efficient ones under light defence sit AWAY
# below; BLUNDER marks a choice the bot never makes (nine terminals it would not abort on,
# a call with no discard, an action it does not weigh).
WIN = 1e7
SHANTEN = 1e5
RIICHI = 1.0
AWAY = 200.0
BLUNDER = 1000.0
#: another copy of a kind (a red five beside a plain one, the drawn twin): a hair below
TWIN = 0.01
#: claim answers that change nothing: skip, and hiding a tenpai at a draw
_NEUTRAL = frozenset((ActionType.SKIP, ActionType.NOTENPAI))


class Candidate(NamedTuple):
    """One discard's outlook."""

    tile: int
    shanten: int
    ukeire: int
    value: float
    #: expected value: win chance x value minus expected deal-in loss
    ev: float
    #: 1-shanten: the draws that reach tenpai weighted by the best wait each leaves
    shape: float = 0.0
    #: tenpai: the guaranteed ron value without riichi (0: no yaku, riichi is the yaku)
    dama: float = 0.0
    #: tenpai on a wait the seat discarded itself: no ron
    furiten: bool = False

    @property
    def live(self) -> float:
        """The ukeire a win can come from (a furiten tenpai's tsumo share only)."""
        return self.ukeire * FURITEN if self.furiten else float(self.ukeire)


class Table:
    """What every decision of one turn reuses: counts, dora, threats, standing."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.counts = [0] * NUM_KINDS
        for t in view.hand:
            self.counts[t >> 2] += 1
        self.visible = view.visible()
        self.dora = [0] * NUM_KINDS
        for k in view.dora_kinds():
            self.dora[k] += 1
        self.red = view.rules.red
        self.yakuhai = frozenset((*DRAGONS, view.seat_wind, view.round_wind))
        self.threats: list[Threat] = threats(view)
        self.melds = view.melds[view.seat]
        self.closed = not any(m.opened for m in self.melds)
        self.draws = max(view.remaining, 0) / view.players
        self.dealer = view.seat == view.dealer
        self.caution = _caution(view)
        self.placement = Placement(view) if PLACEMENT else None
        self.unseen = max(1, 136 - sum(self.visible))
        #: the chance a go-around that some threat wins first (``race``, ``two_step``)
        self.rivals = 1.0 - math.prod(1.0 - RIVAL * t.tenpai for t in self.threats)

    def hand_dora(self) -> int:
        """Dora and reds in the hand and the seat's melds."""
        tiles = [*self.view.hand, *(t for m in self.melds for t in m.tiles)]
        return sum(self.dora[t >> 2] + (t in self.red) for t in tiles)

    def yakuhai_meld(self) -> bool:
        return any(m.tiles[0] >> 2 in self.yakuhai for m in self.melds if m.opened)

    def rough_value(self, dora: int) -> float:
        """Points a win of this hand may bring before it is tenpai."""
        base = CLOSED if self.closed else (2000.0 if self.yakuhai_meld() else 1500.0)
        value = min(base * (1 << min(dora, 2)), 8000.0)
        return value * (1.5 if self.dealer else 1.0)

    def win_chance(self, shanten: int, ukeire: float, waits: float = 0.0) -> float:
        """Rough chance of winning this hand from here (used against threats only);
        ``waits``: a 1-shanten's waiting tiles once tenpai (0: unknown)."""
        time = min(1.0, self.draws / 10)
        if shanten <= 0 and RACE:
            return self.race(ukeire, self.draws)
        if shanten == 1 and ONE_RACE:
            return self.two_step(ukeire, waits or ONE_WAITS)
        if shanten <= 0:
            return min(0.6, TENPAI_WIN * ukeire) * (0.4 + 0.6 * time)
        if shanten == 1:
            return min(ONE_CAP, ONE_WIN * ukeire) * time
        return 0.04 * time * time

    def two_step(self, ukeire: float, waits: float) -> float:
        """A 1-shanten's chance: reach tenpai on one of its own draws (ukeire / unseen
        each, while no threat has won), then win the race with the draws left."""
        step = min(1.0, ukeire / self.unseen)
        total, alive = 0.0, 1.0
        for i in range(1, int(self.draws) + 1):
            alive *= 1.0 - self.rivals
            total += alive * step * self.race(waits, self.draws - i)
            alive *= 1.0 - step
        return total

    def race(self, live: float, draws: float) -> float:
        """A tenpai's chance of winning before a threat does: each go-around it sees
        ``SEES`` tiles (its draw and the others' discards), each a winning one with chance
        live / unseen, while each threat wins with ``RIVAL`` x its tenpai chance; the race
        lasts the seat's draws left."""
        mine = 1.0 - math.pow(1.0 - min(1.0, live / self.unseen), SEES)
        if mine <= 0:
            return 0.0
        both = (1.0 - mine) * (1.0 - self.rivals)
        return mine / (1.0 - both) * (1.0 - math.pow(both, max(draws, 0.0)))


def _caution(view: SeatView) -> float:
    """How much a deal-in hurts now: 1, more for a leader late, less for the last seat."""
    last = view.kyoku >= view.rules.winds * view.players - 1
    if not last:
        return 1.0
    me = view.scores[view.seat]
    others = sorted((s for i, s in enumerate(view.scores) if i != view.seat), reverse=True)
    if me > others[0]:
        return 1.8
    if me < others[-1]:
        return 0.6
    return 1.2


class Placement:
    """Points weighed by what they do to the seat's final rank.

    The expected rank is 1 plus, for each other seat, the chance of finishing behind it: a
    normal spread of ``SIGMA`` points per hand still to play around today's gap. A win or a
    deal-in is then worth its change of expected rank, written in points at the rate of an
    even table (so early on, or between close scores, a point stays a point, and in the last
    hands a leader's deal-in costs more than its win gains, the last seat's less)."""

    def __init__(self, view: SeatView) -> None:
        last = view.rules.winds * view.players - 1
        self.sigma = SIGMA * math.sqrt(max(0, last - view.kyoku) + 0.25)
        self.scores = view.scores
        self.seat = view.seat
        # a point won moves me against every seat (1 + 1/(n-1) each), a point dealt in
        # against the winner twice and the others once: n points of gap either way
        self.rate = view.players * _density(0.0) / self.sigma
        self.now = self._rank(self.scores)

    def _rank(self, scores: Sequence[float]) -> float:
        me = scores[self.seat]
        return 1 + sum(
            _below((s - me) / self.sigma) for i, s in enumerate(scores) if i != self.seat
        )

    def win(self, points: float) -> float:
        """A win of ``points`` (paid by the others alike) in even-table points."""
        if points <= 0:
            return 0.0
        share = points / (len(self.scores) - 1)
        after = [s + points if i == self.seat else s - share for i, s in enumerate(self.scores)]
        return (self.now - self._rank(after)) / self.rate

    def loss(self, points: float, to: int) -> float:
        """A deal-in of ``points`` to seat ``to`` in even-table points."""
        after = [float(s) for s in self.scores]
        after[self.seat] -= points
        after[to] += points
        return (self._rank(after) - self.now) / self.rate


def _below(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def _density(z: float) -> float:
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


class StrongBot:
    """See the module docstring. ``scores`` is what it weighs, ``choose`` their argmax."""

    name = "strong"

    def choose(self, inquiry: SinglePlayerInquiry, view: SeatView) -> tuple[int, int]:
        return argmax(self.scores(inquiry, view))

    def scores(self, inquiry: SinglePlayerInquiry, view: SeatView) -> list[list[float]]:
        """One comparable score per legal choice, ``[action][option]`` (the scale: see
        ``WIN``): a review (engine/review) reads the same numbers the bot plays by."""
        actions = inquiry.actions
        index = {a.type: i for i, a in enumerate(actions)}
        table = Table(view)
        if ActionType.DISCARD in index or ActionType.RIICHI in index:
            out = _turn(actions, index, table)
        else:
            out = _claim(actions, index, table)
        for rank, kind in enumerate(_WINS):
            if kind in index:
                out[index[kind]] = [WIN - rank] * len(actions[index[kind]].options)
        return out


def argmax(scores: list[list[float]]) -> tuple[int, int]:
    """(action, option) of the highest score; the first one on a tie."""
    best = (0, 0)
    top = -math.inf
    for a, row in enumerate(scores):
        for o, value in enumerate(row):
            if value > top:
                best, top = (a, o), value
    return best


# ---------------------------------------------------------------- own turn


def _turn(
    actions: Sequence[Action], index: dict[ActionType, int], table: Table
) -> list[list[float]]:
    out = [[-math.inf] * len(a.options) for a in actions]
    options: dict[int, Option] = {}
    if ActionType.DISCARD in index:
        for o in actions[index[ActionType.DISCARD]].options:
            options.setdefault(o.tiles[0], o)
    riichi: dict[int, int] = {}
    if ActionType.RIICHI in index:
        for j, o in enumerate(actions[index[ActionType.RIICHI]].options):
            riichi.setdefault(o.tiles[0], j)
    candidates = _candidates(table, options or {t: Option((t,)) for t in riichi})
    worth = _worth(candidates, table)
    by_kind = {c.tile >> 2: c for c in candidates}
    best = max(candidates, key=lambda c: worth[c.tile])
    top = worth[best.tile]
    for kind in (ActionType.DISCARD, ActionType.RIICHI):
        if kind not in index:
            continue
        row = out[index[kind]]
        for j, o in enumerate(actions[index[kind]].options):
            tile = o.tiles[0]
            c = by_kind[tile >> 2]
            # another copy of a candidate's kind (a red five, the drawn twin): a hair less
            row[j] = worth[c.tile] - (0 if tile == c.tile else TWIN)
            if kind == ActionType.RIICHI:  # declared with the best discard only
                wants = ActionType.DISCARD not in index or (c is best and _wants_riichi(c, table))
                row[j] += RIICHI if wants else -RIICHI
    _kan(actions, index, table, best, top, out)
    if ActionType.KYUUSHU in index:
        distinct = sum(1 for k in YAOCHUU if table.counts[k])
        out[index[ActionType.KYUUSHU]] = [WIN / 10 if distinct < 11 else top - BLUNDER]
    return [[top - BLUNDER if v == -math.inf else v for v in row] for row in out]


def _candidates(table: Table, options: dict[int, Option]) -> list[Candidate]:
    """Each allowed discard (one per kind, a plain five before a red one) with its outlook."""
    counts, visible = table.counts, table.visible
    chosen: dict[int, int] = {}
    for tile in sorted(options):
        k = tile >> 2
        if k not in chosen or (chosen[k] in table.red and tile not in table.red):
            chosen[k] = tile
    dora = table.hand_dora()
    discarded = {t >> 2 for t in table.view.rivers[table.view.seat]}
    out = []
    for k, tile in chosen.items():
        counts[k] -= 1
        s, u = shanten_and_ukeire(counts, visible)
        counts[k] += 1
        keep = dora - table.dora[k] - (tile in table.red)
        value = table.rough_value(keep)
        dama = 0.0
        furiten = False
        if s == 0:
            dama, value = _tenpai_value(options[tile], table, keep, visible)
            if value <= 0:  # an open hand without a yaku: tenpai in name only
                s = 1
                value = table.rough_value(keep)
            else:
                furiten = any(info.kind in discarded for info in options[tile].tenpai)
        out.append(Candidate(tile, s, u, value, 0.0, dama=dama, furiten=furiten))
    best = max((c.ukeire for c in out if c.shanten == 1), default=0)
    for i, c in enumerate(out):
        if c.shanten == 1 and c.ukeire >= SHAPE_SHARE * best:
            k = c.tile >> 2
            counts[k] -= 1
            out[i] = c._replace(shape=_shape(counts, visible))
            counts[k] += 1
    return out


def _shape(counts: list[int], visible: list[int]) -> float:
    """For a 1-shanten 3n+1 part: sum over the tiles that make tenpai of the copies left
    times the most waiting tiles a tenpai discard then keeps (ukeire weighted by wait
    quality: a 1-shanten whose tenpais are all kanchan ranks below one that makes ryanmen)."""
    _, necessary = xiangting.calculate_necessary_tiles(counts, _FOUR)
    total = 0.0
    while necessary:
        low = necessary & -necessary
        necessary ^= low
        k = low.bit_length() - 1
        left = 4 - visible[k]
        if left <= 0:
            continue
        counts[k] += 1
        _, keep = xiangting.calculate_unnecessary_tiles(counts, _FOUR)
        waits = 0
        while keep:
            bit = keep & -keep
            keep ^= bit
            d = bit.bit_length() - 1
            counts[d] -= 1
            _, wait_mask = xiangting.calculate_necessary_tiles(counts, _FOUR)
            counts[d] += 1
            n = 0
            while wait_mask:
                w = wait_mask & -wait_mask
                wait_mask ^= w
                j = w.bit_length() - 1
                n += max(0, 4 - visible[j] - (j == k))
            waits = max(waits, n)
        counts[k] -= 1
        total += left * waits
    return total


def _tenpai_value(
    option: Option, table: Table, dora: int, visible: list[int]
) -> tuple[float, float]:
    """A tenpai's (dama value, value): the engine's guaranteed ron value per wait (weighted
    by the copies left), and for a closed hand the value with what riichi adds."""
    infos = option.tenpai
    total = weight = 0.0
    for info in infos:
        left = max(0, 4 - visible[info.kind])
        total += info.points * left
        weight += left
    dama = value = total / weight if weight else 0.0
    if table.closed:
        value = max(value * 1.6, table.rough_value(dora))  # what a riichi win may bring
    return dama, value


def _worth(candidates: list[Candidate], table: Table) -> dict[int, float]:
    """Each discard's score: efficiency without a threat, expected value against a riichi
    or a likely tenpai, and against open hands still far from it safety among the nearly
    most efficient discards (the others ``AWAY`` below them)."""
    if not table.threats:
        return {c.tile: _efficiency(c, table) for c in candidates}
    efficient = min(candidates, key=lambda c: _efficiency_key(c, table))
    scored = []
    place = table.placement
    weights = [place.loss(t.value, t.seat) / t.value if place else 1.0 for t in table.threats]
    caution = 1.0 if place else table.caution
    sticks = STICK * (table.view.kyotaku + sum(r >= 0 for r in table.view.riichi))
    for c in candidates:
        kind = c.tile >> 2
        loss = sum(
            t.tenpai * danger(kind, t, table.visible) * t.value * w
            for t, w in zip(table.threats, weights, strict=True)
        )
        push = 1.0 if c.shanten <= 0 else FAR_PUSH  # a far hand must survive more discards
        won = place.win(c.value + sticks) if place else c.value + sticks
        waits = c.shape / c.ukeire if ONE_RACE and c.shape and c.ukeire else 0.0
        gain = table.win_chance(c.shanten, c.live, waits) * won
        if c.shanten <= 0:
            gain += KEITEN * max(0.0, 1 - table.draws / KEITEN_DRAWS)
        scored.append(c._replace(ev=gain - loss * push * caution))
    if max(t.tenpai for t in table.threats) >= LIGHT:
        # ties: lower shanten, more ukeire, lower tile (each far below a point)
        return {c.tile: c.ev - 1e-4 * c.shanten + 1e-7 * c.ukeire - 1e-10 * c.tile for c in scored}
    near = [
        c for c in scored if c.shanten == efficient.shanten and c.ukeire >= NEAR * efficient.ukeire
    ]
    # safety in steps of 150 points first, efficiency (scaled within a step) breaks ties
    out = {c.tile: 150.0 * round(c.ev / 150) + _efficiency(c, table, 1 / 120) for c in near}
    floor = min(out.values()) - AWAY
    for c in scored:
        out.setdefault(c.tile, floor + _efficiency(c, table) * 1e-7)
    return out


def _efficiency(c: Candidate, table: Table, scale: float = 1.0) -> float:
    """``_efficiency_key`` as one number: -SHANTEN a shanten, 10 a tile of ukeire (a tenpai:
    ukeire x value / 100), ties (yaochuu first, then the lower tile) far below one. With
    ``scale`` only the part within the shanten, shrunk by it."""
    key = _efficiency_key(c, table)
    within = -key[1] / 100 if c.shanten <= 0 else -key[1] * 10
    tie = 1e-6 * (136 - key[-1]) + (1e-3 * (1 - key[2]) if len(key) == 4 else 0.0)
    if scale != 1.0:
        return within * scale + tie
    return -SHANTEN * max(c.shanten, 0) + within + tie


def _efficiency_key(c: Candidate, table: Table) -> tuple[float, ...]:
    k = c.tile >> 2
    if c.shanten <= 0:
        return (c.shanten, -c.live * c.value, c.tile)
    bonus = 0.0
    if k >= 27 and k not in table.yakuhai and table.counts[k] == 1:
        bonus += 1.5  # a lone guest honour goes first
    if not table.closed and not table.yakuhai_meld() and k in YAOCHUU:
        bonus += 3.0  # an open hand heading for tanyao sheds terminals
    keep = table.dora[k] * 3.0 + (c.tile in table.red) * 2.0
    if k in table.yakuhai and table.counts[k] >= 2:
        keep += 2.0
    if c.shape:  # weighted by the waits of its tenpais: about four times the ukeire scale
        return (c.shanten, -(c.shape + 4 * (bonus - keep)), 0 if k in YAOCHUU else 1, c.tile)
    return (c.shanten, -(c.ukeire + bonus - keep), 0 if k in YAOCHUU else 1, c.tile)


def _wants_riichi(best: Candidate, table: Table) -> bool:
    if best.ukeire == 0:
        return False  # every winning tile is visible: no point declaring
    view = table.view
    big = DAMA * (1.5 if table.dealer else 1.0)
    dama = best.dama
    if dama >= big:
        return False
    last = view.kyoku >= view.rules.winds * view.players - 1
    others = [s for i, s in enumerate(view.scores) if i != view.seat]
    # leading in the last hand: a quiet win ends the game
    return not (last and dama > 0 and view.scores[view.seat] > max(others))


def _kan(
    actions: Sequence[Action],
    index: dict[ActionType, int],
    table: Table,
    best: Candidate,
    top: float,
    out: list[list[float]],
) -> None:
    """A closed or added kan that costs nothing (same shanten) and risks nothing scores
    above the best discard (the first such kan highest); any other ``AWAY`` below it."""
    in_riichi = table.view.riichi[table.view.seat] >= 0
    free = in_riichi or (not table.threats and KANS)
    n = 0
    for kind in (ActionType.ANKAN, ActionType.KAKAN):
        if kind not in index:
            continue
        for j, o in enumerate(actions[index[kind]].options):
            k = o.tiles[0] >> 2
            counts = list(table.counts)
            counts[k] -= 4 if kind == ActionType.ANKAN else 1
            good = free and counts[k] >= 0
            if good:
                s, _ = shanten_and_ukeire(counts, table.visible)
                good = s <= best.shanten
            out[index[kind]][j] = top + 2 * RIICHI - TWIN * n if good else top - AWAY
            n += good


# ---------------------------------------------------------------- claims


def _claim(
    actions: Sequence[Action], index: dict[ActionType, int], table: Table
) -> list[list[float]]:
    """Skip scores 0; a call worth making 100 a shanten it gains plus half a point a tile
    of ukeire after it; a call not worth making ``-AWAY``, one without a discard after it
    ``-BLUNDER``."""
    out = [[0.0 if a.type in _NEUTRAL else -AWAY] * len(a.options) for a in actions]
    s0, _ = shanten_and_ukeire(table.counts, table.visible)
    view = table.view
    left = (view.seat - 1) % view.players
    for kind in (ActionType.PON, ActionType.CHII):
        if kind not in index:
            continue
        row = out[index[kind]]
        for j, o in enumerate(actions[index[kind]].options):
            if kind == ActionType.PON:
                called = o.tiles[0] >> 2
            else:
                river = view.rivers[left]
                called = river[-1] >> 2 if river else -1
            outcome = _after_call(table, o.tiles, called, kind)
            if outcome is None:
                row[j] = -BLUNDER
                continue
            s1, u1 = outcome
            if _worth_calling(table, o.tiles, called, kind, s0, s1):
                row[j] = 100.0 * (s0 - s1) + 0.5 * u1 - 1e-3 * index[kind] - 1e-6 * j
    return out


def _after_call(
    table: Table, own: tuple[int, ...], called: int, kind: ActionType
) -> tuple[int, int] | None:
    """(shanten, ukeire) after the call and its best discard (kuikae kinds excluded)."""
    counts = list(table.counts)
    for t in own:
        counts[t >> 2] -= 1
    banned = {called}
    if kind == ActionType.CHII:
        low = min(t >> 2 for t in own)
        high = max(t >> 2 for t in own)
        if high - low == 1:  # a ryanmen chii: the other end is kuikae too
            if called == low - 1 and (high + 1) % 9 != 0 and high < 27:
                banned.add(high + 1)
            if called == high + 1 and low % 9 != 0:
                banned.add(low - 1)
    best: tuple[int, int] | None = None
    for k in range(NUM_KINDS):
        if counts[k] == 0 or k in banned:
            continue
        counts[k] -= 1
        s, u = shanten_and_ukeire(counts, table.visible)
        counts[k] += 1
        if best is None or (s, -u) < (best[0], -best[1]):
            best = (s, u)
    return best


def _worth_calling(
    table: Table, own: tuple[int, ...], called: int, kind: ActionType, s0: int, s1: int
) -> bool:
    if s1 >= s0:
        return False
    if table.threats and s1 > 0:
        return False  # no opening up a slow hand into a riichi
    yakuhai = kind == ActionType.PON and called in table.yakuhai
    others = OPEN_CALLS and (_tanyao(table, own, called) or _honitsu(table))
    if not (yakuhai or table.yakuhai_meld() or others):
        return False
    if yakuhai:
        return True
    if KEEP_CLOSED and table.closed and s0 <= 1 and table.hand_dora() == 0:
        return False  # a closed 1-shanten keeps its riichi rather than a cheap open hand
    return s1 <= 2


def _tanyao(table: Table, own: tuple[int, ...], called: int) -> bool:
    if not table.view.rules.kuitan or called not in SIMPLES:
        return False
    if any(t >> 2 not in SIMPLES for t in own):
        return False
    if any(t >> 2 not in SIMPLES for m in table.melds for t in m.tiles):
        return False
    used = {t for t in own}
    outside = sum(1 for t in table.view.hand if t not in used and t >> 2 in YAOCHUU)
    return outside <= 2


def _honitsu(table: Table) -> bool:
    """Nearly one suit plus honours: hand and melds with at most two other-suit tiles."""
    tiles = [*table.view.hand, *(t for m in table.melds for t in m.tiles)]
    suits = [0, 0, 0]
    for t in tiles:
        if t >> 2 < 27:
            suits[(t >> 2) // 9] += 1
    main = max(suits)
    return sum(suits) - main <= 2 and len(tiles) - sum(suits) >= 2
