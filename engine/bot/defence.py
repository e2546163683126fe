"""How dangerous a discard is: threats at the table and a deal-in estimate per tile kind.

A threat is a seat in riichi, or an open hand that looks fast and valuable. For each threat a
tile kind gets an estimated chance of dealing into it, built from what the seat can see:
genbutsu (the threat's own discards, and for a riichi the tiles others let pass since) is
safe; suji halves a number tile's ryanmen danger per side; kabe (all four of a neighbour
visible) and one-chance (three visible) block or thin out the ryanmen shapes that wait on it;
honours and tanki/shanpon waits scale with the copies still unseen. The figures are rough
Tenhou-statistics magnitudes: the push/fold rule compares them with the hand's own value.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.bot.view import SeatView
from engine.rules.tiles import DRAGONS

#: deal-in chance per open ryanmen side (a hand waiting on this kind with a two-sided wait)
_SIDE = 0.055
#: shanpon/tanki danger per unseen copy beyond the discarded one, and kanchan danger
_PAIR = 0.011
_KANCHAN = 0.014
#: shanpon/tanki danger by the copies still unseen (the discarded one among them): a
#: shanpon needs two of them in the threat's hand, so one unseen copy is a tanki only
#: (Tenhou statistics: a live honour deals in ~6%, one seen ~3%, two seen ~1%)
HONOURS = (0.0, 0.008, 0.03, 0.06, 0.07)
PAIRS = (0.0, 0.004, 0.014, 0.03, 0.035)
#: False: the old linear pair danger (0.004 + 0.03 per unseen honour, _PAIR per number)
TABLES = True
#: open melds that make a hand worth watching without a yakuhai meld (one yakuhai pon does)
OPEN_MELDS = 2


class Threat(NamedTuple):
    seat: int
    #: how likely the seat is tenpai now (1.0 for riichi)
    tenpai: float
    #: the points a deal-in is expected to cost
    value: float
    #: tile kinds that cannot deal in to this seat
    safe: frozenset[int]


def threats(view: SeatView) -> list[Threat]:
    """Every other seat worth defending against now."""
    found: list[Threat] = []
    dora = view.dora_kinds()
    for seat in range(view.players):
        if seat == view.seat:
            continue
        dealer = 1.5 if seat == view.dealer else 1.0
        if view.riichi[seat] >= 0:
            found.append(Threat(seat, 1.0, 5800 * dealer, _safe_after_riichi(view, seat)))
            continue
        opened = [m for m in view.melds[seat] if m.opened]
        if not opened:
            continue
        worth = sum(dora.count(t >> 2) for m in opened for t in m.tiles)
        worth += sum(1 for m in opened for t in m.tiles if t in view.rules.red)
        winds = (*DRAGONS, view.round_wind, _wind_of(view, seat))
        yakuhai = any(m.tiles[0] >> 2 in winds for m in opened)
        if len(opened) < OPEN_MELDS and not yakuhai:
            continue
        # an open hand is tenpai more often the more it called and the longer it played
        tenpai = min(0.75, 0.12 * len(opened) + 0.025 * len(view.rivers[seat]))
        value = (1500 + 1800 * min(worth, 3)) * dealer
        safe = frozenset(t >> 2 for t in view.rivers[seat])
        found.append(Threat(seat, tenpai, value, safe))
    return found


def _wind_of(view: SeatView, seat: int) -> int:
    return 27 + (seat - view.dealer) % view.players


def _safe_after_riichi(view: SeatView, seat: int) -> frozenset[int]:
    """The riichi seat's discards, and what others discarded since its riichi (furiten).

    The view keeps rivers per seat, not one global order: the last ``k`` discards of each
    other seat are taken as after the riichi, ``k`` the riichi seat's discards since its
    declaration (a call that skips a seat can make this one tile too generous)."""
    river = view.rivers[seat]
    safe = {t >> 2 for t in river}
    after = len(river) - 1 - view.riichi[seat]
    if after > 0:
        for other in range(view.players):
            if other != seat:
                for t in view.rivers[other][-after:]:
                    safe.add(t >> 2)
    return frozenset(safe)


def danger(kind: int, threat: Threat, visible: list[int]) -> float:
    """Estimated chance that discarding ``kind`` deals in to ``threat`` (before its tenpai
    likelihood)."""
    if kind in threat.safe:
        return 0.0
    unseen = 4 - visible[kind]
    if kind >= 27:
        return HONOURS[max(unseen, 0)] if TABLES else 0.004 + 0.03 * max(unseen, 0)
    n = kind % 9  # 0..8
    base = kind - n
    total = PAIRS[max(unseen, 0)] if TABLES else _PAIR * max(unseen, 0)
    safe = threat.safe
    if n <= 5 and base + n + 3 not in safe:  # ryanmen (n+1, n+2) waiting on n and n+3
        total += _SIDE * _open(visible, base + n + 1, base + n + 2)
    if n >= 3 and base + n - 3 not in safe:  # ryanmen (n-2, n-1) waiting on n-3 and n
        total += _SIDE * _open(visible, base + n - 2, base + n - 1)
    if 1 <= n <= 7:  # kanchan (n-1, n+1)
        total += _KANCHAN * _open(visible, base + n - 1, base + n + 1)
    if n in (2, 6):  # penchan 12 waiting on 3, 89 waiting on 7
        pair = (base, base + 1) if n == 2 else (base + 7, base + 8)
        total += _KANCHAN * _open(visible, *pair)
    return total


def _open(visible: list[int], a: int, b: int) -> float:
    """How possible a shape of kinds ``a`` and ``b`` is in a hidden hand: 0 when either is
    all visible (kabe / no-chance), thinned when three are (one-chance)."""
    left = min(4 - visible[a], 4 - visible[b])
    return (0.0, 0.35, 0.8, 1.0, 1.0)[max(left, 0)]


def deal_in_loss(kind: int, found: list[Threat], visible: list[int]) -> tuple[float, float]:
    """(chance of dealing in, expected points lost) by discarding ``kind`` now."""
    chance = loss = 0.0
    for threat in found:
        p = threat.tenpai * danger(kind, threat, visible)
        chance += p
        loss += p * threat.value
    return chance, loss
