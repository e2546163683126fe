"""The review API: ``POST /api/games/{id}/review`` asks for a seat's review of a finished
game, ``GET /api/games/{id}/review?seat=&engine=`` tells its progress or serves it.

Only a finished game is reviewed, and a review of any other game is neither started nor
served: a review replays the game from its seed, which in a game still in play (or
suspended, to be resumed) would tell every wall to come. A review is computed once per
(game, seat, engine), in the worker pool of server/review/jobs.py; only a request that
would start one spends the client's ``reviews`` budget.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.edge.limits import Guard, too_many
from server.edge.web import error, query_int, read_body
from server.review.jobs import Busy, Reviews
from server.routes.games import RecordCache, round_running
from server.storage import reviews
from server.storage.reviews import DONE, ReviewRow

#: the only status whose games are reviewed
FINISHED = "finished"
#: a client told the pool is full comes back after this many seconds
BUSY_RETRY_S = 30
#: the highest seat index of any game (four players)
MAX_SEAT = 3


#: the state of a review nobody asked for (GET answers it with 200: a normal state)
NONE = "none"


class ReviewAsk(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    engine: str = "strong"


class ReviewState(msgspec.Struct):
    """A review's progress (``queued``, ``running``: ``done`` of ``total`` hands), or its
    report (``done``) or the reason there is none (``failed``), or ``none``: not asked yet."""

    game: str
    seat: int
    engine: str
    status: str
    done: int
    total: int
    error: str = ""
    #: engine.review's report (docs/review.md) once done, else null
    review: msgspec.Raw = msgspec.Raw(b"null")


#: the account a request is logged in as, or None (server/routes/accounts.py)
Who = Callable[[Request], Awaitable[int | None]]


async def _nobody(request: Request) -> int | None:
    return None


class ReviewApi:
    def __init__(self, service: Reviews, guard: Guard, who: Who = _nobody) -> None:
        """``who``: the asker's account; a review asked by the seat's own account is marked
        so, and only such reviews feed the seat's public match rate."""
        self.service = service
        self.storage = service.storage
        self.guard = guard
        self.who = who
        #: served reports by (game, seat, engine): a stored report never changes
        self.cache = RecordCache(service.settings.record_cache)

    async def ask(self, request: Request) -> Response:
        """Start (or find) a review: 202 while it is pending, 200 with the report once done."""
        body = await read_body(request, ReviewAsk)
        if isinstance(body, Response):
            return body
        if body.engine not in self.service.engines():
            engines = ", ".join(self.service.engines())
            return error("bad_engine", f"engine is one of {engines}")
        game = request.path_params["game"]
        sealed = await round_running(self.storage, game)
        if sealed is not None:
            return sealed
        facts = await anyio.to_thread.run_sync(reviews.game_facts, self.storage, game)
        refused = _refused(facts)
        if refused is not None:
            return refused
        assert facts is not None
        if not 0 <= body.seat < facts[1]:
            return error("bad_seat", f"seat is 0..{facts[1] - 1}")
        key = (game, body.seat, body.engine)
        own = await self._own(request, game, body.seat)
        found = await anyio.to_thread.run_sync(lambda: reviews.row(self.storage, *key))
        if found is not None and not self.service.orphaned(found):
            if own:
                await anyio.to_thread.run_sync(reviews.mark_own, self.storage, *key)
            return await self._state(found)  # asked before: free, and never computed again
        client = self.guard.client(request.client, request.headers)
        refused = await self.guard.check_rate(self.guard.reviews, client, "reviews")
        if refused is not None:
            return refused
        record = await anyio.to_thread.run_sync(self.storage.load, game)
        if record is None or record.status != FINISHED:  # changed since: refuse all the same
            return error("not_finished", "a game is reviewed when it has finished", 409)
        try:
            found = await anyio.to_thread.run_sync(
                self.service.request, record, body.seat, body.engine
            )
        except Busy:
            message = "the server is reviewing as many games as it may; try again later"
            return too_many("busy", message, BUSY_RETRY_S)
        if own:
            await anyio.to_thread.run_sync(reviews.mark_own, self.storage, *key)
        return await self._state(found)

    async def _own(self, request: Request, game: str, seat: int) -> bool:
        """Whether the asker is logged in as the account that sat at ``seat``."""
        account = await self.who(request)
        if account is None:
            return False
        sat = await anyio.to_thread.run_sync(reviews.seat_account, self.storage, game, seat)
        return sat == account

    async def state(self, request: Request) -> Response:
        """``?seat=N&engine=E``: the review's state; ``none`` (200) when nobody asked for it
        yet, the normal state of every replay opened before a review is asked for."""
        game = request.path_params["game"]
        q = request.query_params
        engine = q.get("engine", "strong")
        try:
            seat = query_int(q, "seat", -1, 0, MAX_SEAT)
        except ValueError as exc:
            return error("bad_query", str(exc))
        if seat < 0:
            return error("bad_query", "seat is a number")
        sealed = await round_running(self.storage, game)
        if sealed is not None:
            return sealed
        facts = await anyio.to_thread.run_sync(reviews.game_facts, self.storage, game)
        refused = _refused(facts)
        if refused is not None:
            return refused
        assert facts is not None
        if not 0 <= seat < facts[1]:
            return error("bad_seat", f"seat is 0..{facts[1] - 1}")
        key = (game, seat, engine)
        found = await anyio.to_thread.run_sync(lambda: reviews.row(self.storage, *key))
        if found is None:
            none = ReviewState(game, seat, engine, NONE, 0, 0)
            return _json(msgspec.json.encode(none), 200)
        if self.service.orphaned(found):  # its node stopped: this one takes it over
            record = await anyio.to_thread.run_sync(self.storage.load, game)
            if record is not None:
                with contextlib.suppress(Busy):  # still pending: the next poll tries again
                    found = await anyio.to_thread.run_sync(
                        self.service.request, record, seat, engine
                    )
        return await self._state(found)

    async def _state(self, row: ReviewRow) -> Response:
        state = ReviewState(
            row.game, row.seat, row.engine, row.status, row.done, row.total, row.error or ""
        )
        if row.status != DONE:
            return _json(msgspec.json.encode(state), 202 if row.status != "failed" else 200)
        key = (row.game, f"{row.seat}:{row.engine}")
        hit = self.cache.get(key)
        if hit is None:
            report = await anyio.to_thread.run_sync(
                reviews.result, self.storage, row.game, row.seat, row.engine
            )
            if report is None:  # not possible for a done row; say so rather than crash
                return error("no_review", "the review's report is missing", 500)
            done = msgspec.structs.replace(state, review=msgspec.Raw(report))
            hit = (msgspec.json.encode(done), "application/json")
            self.cache.put(key, hit)
        return _json(hit[0], 200)


def _refused(facts: tuple[str, int] | None) -> Response | None:
    """404 for no such game, 409 for a game that has not finished (fairness), else None."""
    if facts is None:
        return error("no_game", "no such game", 404)
    if facts[0] != FINISHED:
        return error("not_finished", "a game is reviewed when it has finished", 409)
    return None


def _json(body: bytes, status: int) -> Response:
    return Response(body, status, media_type="application/json")
