"""One write pass per loop turn (server/session/outbox.py's ``TurnWriter``): what a table
pushes to several seats in one turn is written by one loop callback, each seat's frames in
their order, and never from inside the push itself (a frame leaves only after the turn
that pushed it, which is where the table's own path decides it may go)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import FrameType

import pytest

from server.edge.messaging import EventMsg
from server.edge.ws_direct import DirectProtocol
from server.session.outbox import Outbox
from tests.server.live import WireBot, live_server, two_seats

_RUN = asyncio.Handle._run.__code__
_PUSH = Outbox.push.__code__


def _callback_and_push() -> tuple[asyncio.Handle | None, bool]:
    """The loop callback the caller runs in, and whether ``Outbox.push`` is on the stack."""
    frame: FrameType | None = sys._getframe(2)
    pushing = False
    while frame is not None:
        pushing = pushing or frame.f_code is _PUSH
        if frame.f_code is _RUN:
            handle = frame.f_locals["self"]
            return (handle if isinstance(handle, asyncio.Handle) else None), pushing
        frame = frame.f_back
    return None, pushing


async def test_a_turn_s_frames_to_several_seats_go_out_in_one_callback_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[tuple[asyncio.Handle | None, DirectProtocol, str]] = []
    from_push: list[str] = []
    original = DirectProtocol.write_text

    def recorded(self: DirectProtocol, text: str) -> bool:
        handle, pushing = _callback_and_push()
        if pushing:
            from_push.append(text)
        writes.append((handle, self, text))
        return original(self, text)

    monkeypatch.setattr(DirectProtocol, "write_text", recorded)
    async with live_server(tmp_path) as (host, _hub):
        ann_token, bob_token = await two_seats(host)
        ann = WireBot(host, ann_token, seed=5, batch=True)
        bob = WireBot(host, bob_token, seed=6, batch=True)
        await asyncio.wait_for(asyncio.gather(ann.play(), bob.play()), 120)
    assert writes and all(h is not None for h, _, _ in writes), "not asyncio's own loop"
    assert not from_push  # nothing is written synchronously inside a push
    sockets_by_callback: dict[int, set[int]] = {}
    for handle, sock, _ in writes:
        sockets_by_callback.setdefault(id(handle), set()).add(id(sock))
    shared = sum(len(s) > 1 for s in sockets_by_callback.values())
    # each step's events reach both humans: their frames went out in one callback (before,
    # every seat's outbox scheduled a callback of its own: none was ever shared)
    assert shared > 50, f"{shared} of {len(sockets_by_callback)} callbacks wrote to both seats"
    # ... and no seat was written twice by one callback (one write per seat per pass)
    per_pass: dict[tuple[int, int], int] = {}
    for handle, sock, _ in writes:
        key = (id(handle), id(sock))
        per_pass[key] = per_pass.get(key, 0) + 1
    assert max(per_pass.values()) == 1
    for bot in (ann, bob):  # every event once, in order
        seqs = [m.seq for m in bot.received if isinstance(m, EventMsg)]
        assert len(seqs) > 100 and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
