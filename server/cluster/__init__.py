"""Scale-out: several server processes ("nodes") share one Redis, as Colyseus and Nakama do.

A room lives on the node that made it (its table, seats and SQLite or PostgreSQL records).
Redis holds what the nodes share:

- the room directory and the lobby (server/cluster/directory.py): every node lists all rooms;
- seat reservations: a join through another node is forwarded to the owner
  (server/cluster/rpc.py) with the hash of a token the asking node made; the answer names
  the owner (``RoomInfo.node``, its URL), where the client then plays. The token itself never
  leaves the node that hands it to the client;
- per-client rate limits (server/cluster/limits.py);
- spectator fan-out (server/cluster/relay.py).

``redis`` is an optional dependency (``pip install 'riichi-server[cluster]'``): a server
without ``--redis`` never imports this package.

This ``__init__`` holds no code: the Cluster class is in server/cluster/node.py, so the
modules here import one another by module path and the package stays free of cycles.
"""
