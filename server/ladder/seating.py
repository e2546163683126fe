"""Who sits with whom at a ranked lobby's draw: tables drawn from everyone waiting, never
two accounts of one address (an IPv6 /64) at a table while someone else waits.

Queueing together must not choose one's table: four accounts that join at the same moment
would, first come first seated, always make a table of their own. The lobby's draw
(server/ladder/queue.py, every ``ranked_draw_s``) instead shuffles everyone waiting and deals
tables where each seat holds a different address; only when everyone left after that shares
one address do they sit together (nobody else's seat is theirs to take, and a table nobody
plays counts for nobody: docs/ranking.md).

>>> draw = draw_tables([(1, "a"), (2, "a"), (3, "b"), (4, "c"), (5, "d")], 4, random.Random(1))
>>> [sorted(t) for t in draw][0][1:]
[3, 4, 5]
>>> draw_tables([(1, "a"), (2, "a"), (3, "a"), (4, "b")], 4, random.Random(1))
[]
"""

from __future__ import annotations

import ipaddress
import random

#: the network an IPv6 client stands for when seating (one host holds a whole /64)
SEATING_PREFIX = 64


def seat_key(client: str) -> str:
    """The address a seat is kept apart by: an IPv4 address, an IPv6 /64 (the client id may
    already be a network of the operator's ``ipv6_prefix``; a longer one is widened).

    >>> seat_key("2001:db8::1/128"), seat_key("2001:db8::5"), seat_key("10.0.0.1")
    ('2001:db8::/64', '2001:db8::/64', '10.0.0.1')
    """
    try:
        net = ipaddress.ip_network(client.strip("[]"), strict=False)
    except ValueError:
        return client
    if isinstance(net, ipaddress.IPv6Network):
        if net.network_address.ipv4_mapped is not None:
            return str(net.network_address.ipv4_mapped)
        if net.prefixlen > SEATING_PREFIX:
            net = net.supernet(new_prefix=SEATING_PREFIX)
        return str(net)
    return str(net.network_address) if net.prefixlen == 32 else str(net)


def draw_tables(pool: list[tuple[int, str]], players: int, rng: random.Random) -> list[list[int]]:
    """Tables of ``players`` accounts drawn from ``pool`` ((account, seat key) of everyone
    waiting), in a random order: each table's accounts of distinct keys, the keys with the
    most accounts waiting dealt first (so as many tables form as can); what is left waits,
    unless it is all of one key."""
    order = list(pool)
    rng.shuffle(order)
    by_key: dict[str, list[int]] = {}
    for account, key in order:  # insertion order: the shuffle's, which breaks the ties
        by_key.setdefault(key, []).append(account)
    tables: list[list[int]] = []
    while True:
        keys = sorted((k for k in by_key if by_key[k]), key=lambda k: -len(by_key[k]))
        if len(keys) < players:
            break
        tables.append([by_key[k].pop(0) for k in keys[:players]])
    left = [k for k in by_key if by_key[k]]
    if len(left) == 1:  # one address alone is left: its accounts take nobody's seat
        alone = by_key[left[0]]
        while len(alone) >= players:
            tables.append([alone.pop(0) for _ in range(players)])
    return tables
