"""The server's hot modules, compiled by mypyc or interpreted: the same code either way.

A decision's own Python on the server (the table's callbacks, its answers, the outboxes,
the inquiry wire, the seat's frame handler, the seats, the encoders, clocks, write-ahead
checks and spectators) costs as much as the engine's step (docs/perf-notes.md: compiled,
403,000 instructions per decision become 331,000, and 306,000 with the encoders, the seats
and the meter), and like the engine's it is mostly the interpreter's per-bytecode cost.
``pip install`` compiles ``COMPILED`` as the engine's set is compiled (setup.py,
engine/native.py's ``NativeSet``), in a group of its own: these modules reach the engine's
objects as Python objects, so the server runs compiled over an interpreted engine and the
other way round, while inside each set it is all or nothing. ``RIICHI_INTERPRETED=1``
interprets both.

Left interpreted: the WebSocket protocol (server/edge/ws_direct.py subclasses uvicorn's),
the deadlines (a ``dict`` subclass), the messages (msgspec structs lose their class keywords
in a compiled module: their encoders are server/edge/codec.py), the rooms (server/session/
resume.py sets a stored room's options by name), the storage (a test subclasses it), and
everything not on a decision's path.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.native import NativeSet

#: the modules a decision's server-side Python runs through (docs/perf-notes.md)
COMPILED = (
    "server.edge.codec",
    "server.edge.socket_lanes",
    "server.session.answers",
    "server.session.client",
    "server.session.clock",
    "server.session.durable",
    "server.session.meter",
    "server.session.outbox",
    "server.session.recording",
    "server.session.seat",
    "server.session.spectators",
    "server.session.table",
    "server.session.wire",
)
#: mypyc's group: the shared library of the compiled modules is ``<GROUP>__mypyc``
GROUP = "server_native"


def _stamp() -> Mapping[str, str]:
    from server._native_build import SOURCES  # type: ignore[import-not-found,unused-ignore]

    return dict(SOURCES)


#: ``SERVER.install()`` runs in ``server/__init__.py``, before any server module is imported;
#: ``SERVER.describe()`` is the line the server logs at its start
SERVER = NativeSet("server", COMPILED, GROUP, "server._native_build", _stamp)

#: why this process runs the interpreted server; None: it runs the compiled modules
REASON = SERVER.reason
