"""The ranked API: the queue, players' profiles and games, the leaderboards.

Reads go to the store in a worker thread and touch only keyed or indexed rows
(server/storage/ranked.py): a profile is two small reads and a bounded history, never a scan
of the records. Stats' rates are derived here from the stored sums (server/ladder/stats.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.accounts import names
from server.edge.web import (
    error,
    json_response,
    no_store,
    query_int,
    query_number,
    read_body,
)
from server.ladder.lobbies import RankedLobby
from server.ladder.queue import Queue, QueueError
from server.ladder.stable_dan import stable_dan
from server.ladder.standing import Standing, may_enter
from server.ladder.stats import SeatStats
from server.ladder.tenhou_dan import NAMES, Dan
from server.routes.accounts import AccountsApi
from server.storage import accounts as rows
from server.storage import ranked
from server.storage.sqlite import Store

#: rating history points a profile shows, at most
HISTORY = 200
#: games on one page, by default and at most
PAGE = 20
PAGE_MAX = 100


class QueueBody(msgspec.Struct, forbid_unknown_fields=True):
    lobby: str


class RankedApi:
    def __init__(
        self,
        store: Store,
        queue: Queue,
        accounts: AccountsApi,
        lobbies: Mapping[str, RankedLobby],
    ) -> None:
        self.store = store
        self.queue = queue
        self.accounts = accounts
        self.lobbies = lobbies
        accounts.on_delete.append(queue.leave)

    async def lobby_list(self, request: Request) -> Response:
        """The ranked lobbies and how many wait in each."""
        counts = await self.queue.waiting.counts(list(self.lobbies))
        listed = [
            {
                "name": lobby.name,
                "preset": lobby.preset,
                "room": lobby.room,
                "players": lobby.players,
                "waiting": counts.get(lobby.name, 0),
            }
            for lobby in self.lobbies.values()
        ]
        return json_response({"lobbies": listed})

    async def join(self, request: Request) -> Response:
        auth = await self.accounts.authenticate(request)
        if isinstance(auth, Response):
            return auth
        body = await read_body(request, QueueBody)
        if isinstance(body, Response):
            return body
        lobby = self.lobbies.get(body.lobby)
        if lobby is not None and lobby.gated:
            row = await anyio.to_thread.run_sync(
                ranked.standing_in, self._read, auth.account.id, lobby.name
            )
            standing = Standing() if row is None else Standing(Dan(row[0]), row[1], row[2], row[3])
            if not may_enter(lobby.rules.lobby, standing):
                return error("not_admitted", "your dan or R is below this room's floor", 403)
        try:
            await self.queue.join(auth.account.id, auth.account.name, body.lobby)
        except QueueError as exc:
            status = {"no_lobby": 404, "no_table": 503}.get(exc.code, 409)
            return error(exc.code, str(exc), status)
        return no_store(json_response(await self.queue.status(auth.account.id)))

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        return self.store.query(sql, args)

    async def status(self, request: Request) -> Response:
        auth = await self.accounts.authenticate(request)
        if isinstance(auth, Response):
            return auth
        return no_store(json_response(await self.queue.status(auth.account.id)))

    async def leave(self, request: Request) -> Response:
        auth = await self.accounts.authenticate(request)
        if isinstance(auth, Response):
            return auth
        left = await self.queue.leave(auth.account.id)
        return no_store(json_response({"left": left, **await self.queue.status(auth.account.id)}))

    async def player(self, request: Request) -> Response:
        found = await anyio.to_thread.run_sync(self._profile, request.path_params["name"])
        if found is None:
            return error("no_player", "no such player", 404)
        return json_response(found)

    def _player(self, name: str) -> tuple[rows.AccountRow, list[tuple[Any, ...]]] | None:
        """The account and its standings; None for a name that played no counted ranked
        game (registered or not: a profile does not tell which names are registered)."""
        account = rows.by_key(self.store, names.name_key(name))
        if account is None:
            return None
        standings = ranked.standings_of(self.store, account.id)
        return (account, standings) if standings else None

    def _profile(self, name: str) -> dict[str, Any] | None:
        found = self._player(name)
        if found is None:
            return None
        account, standings = found
        stats = {
            r[0]: SeatStats(*(int(x) for x in r[1:]))
            for r in ranked.stats_of(self.store, account.id)
        }
        lobbies = [self._standing(row, stats.get(row[0], SeatStats())) for row in standings]
        history = [
            {
                "game": r[0],
                "lobby": r[1],
                "ended": int(r[2] * 1000),
                "place": r[3],
                "score": r[4],
                "dan": r[5],
                "points": r[6],
                "rating": r[7],
                "rating_delta": r[8],
            }
            for r in ranked.history_of(self.store, account.id, HISTORY)
        ]
        return {
            "name": account.name,
            "lobbies": lobbies,
            "history": history,
            **self._agreement(account.id),
        }

    def _agreement(self, account: int) -> dict[str, Any]:
        """The reviews of the account's own seats, oldest first, and their mean match rate."""
        points = [
            {
                "game": r[0],
                "ended": int(r[1] * 1000),
                "engine": r[2],
                "match_rate": float(r[3]),
                "rating": float(r[4]),
            }
            for r in reversed(ranked.reviews_of(self.store, account, HISTORY))
        ]
        mean = sum(p["match_rate"] for p in points) / len(points) if points else None
        return {"reviews": points, "match_rate": mean}

    def _standing(self, row: tuple[Any, ...], stats: SeatStats) -> dict[str, Any]:
        lobby, dan, points, rating, games = (
            row[0],
            int(row[1]),
            int(row[2]),
            float(row[3]),
            int(row[4]),
        )
        config = self.lobbies.get(lobby)
        players = config.players if config is not None else 4
        counts = [int(x) for x in row[5 : 5 + players]]
        stable = None
        if config is not None:
            rules = config.rules
            stable = stable_dan(counts, rules.lobby, rules.length, sanma=players == 3)
        return {
            "lobby": lobby,
            "dan": dan,
            "dan_name": NAMES[dan],
            "points": points,
            "rating": rating,
            "stable_dan": None if stable is None or not math.isfinite(stable) else stable,
            "games": games,
            "placements": counts,
            "stats": _stats(stats, players),
        }

    async def games(self, request: Request) -> Response:
        q = request.query_params
        try:
            limit = query_int(q, "limit", PAGE, 1, PAGE_MAX, clamp=True)
            ms = query_number(q, "before")
            before = math.inf if ms is None else ms / 1000
        except ValueError:
            return error("bad_query", "limit and before are numbers")
        found = await anyio.to_thread.run_sync(
            self._games, request.path_params["name"], before, limit
        )
        if found is None:
            return error("no_player", "no such player", 404)
        return json_response(found)

    def _games(self, name: str, before: float, limit: int) -> dict[str, Any] | None:
        found = self._player(name)
        if found is None:
            return None
        account = found[0]
        page = [
            {
                "game": r[0],
                "lobby": r[1],
                "ended": int(r[2] * 1000),
                "seat": r[3],
                "place": r[4],
                "score": r[5],
                "rating_delta": r[6],
                "seats": msgspec.json.decode(r[7]),
                "replay": f"/#/replay/{r[0]}",
                "record": f"/api/games/{r[0]}/record",
            }
            for r in ranked.games_of(self.store, account.id, before, limit)
        ]
        more = len(page) == limit
        return {"games": page, "next": page[-1]["ended"] if more and page else None}

    async def leaderboard(self, request: Request) -> Response:
        q = request.query_params
        lobby = q.get("lobby", "")
        if lobby not in self.lobbies:
            return error("no_lobby", f"lobby is one of {sorted(self.lobbies)}", 404)
        try:
            limit = query_int(q, "limit", 50, 1, 200, clamp=True)
            offset = query_int(q, "offset", 0, 0, 100_000, clamp=True)
        except ValueError:
            return error("bad_query", "limit and offset are numbers")
        found = await anyio.to_thread.run_sync(ranked.board, self.store, lobby, offset, limit)
        board = [
            {
                "rank": offset + i + 1,
                "name": r[0],
                "dan": int(r[1]),
                "dan_name": NAMES[int(r[1])],
                "points": int(r[2]),
                "rating": float(r[3]),
                "games": int(r[4]),
            }
            for i, r in enumerate(found)
        ]
        return json_response({"lobby": lobby, "players": board})


def _stats(s: SeatStats, players: int) -> dict[str, Any]:
    """The stored sums and the rates derived from them."""
    return {
        **msgspec.structs.asdict(s),
        "average_placement": s.average_placement,
        "first_rate": s.first_rate,
        "last_rate": s.last_rate(players),
        "win_rate": s.win_rate,
        "deal_in_rate": s.deal_in_rate,
        "riichi_rate": s.riichi_rate,
        "call_rate": s.call_rate,
        "tsumo_rate": s.tsumo_rate,
        "average_win": s.average_win,
        "average_deal_in": s.average_deal_in,
        "draw_tenpai_rate": s.draw_tenpai_rate,
    }
