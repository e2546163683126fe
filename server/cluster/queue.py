"""The ranked queue in Redis: every node's accounts wait in one queue per lobby, and each
step is one Lua script (atomic in Redis), so the step that completes a table pops its
accounts and marks them seated before any other node's step runs: a table forms on exactly
one node (the one whose join completed it) and no account is popped twice.

Keys (under ``riichi:rq:``): ``where`` (account -> lobby), ``name`` and ``since`` (account ->
its name, queued at by Redis's clock), ``queue:<lobby>`` (a list, oldest first) and
``seat:<account>`` (the seat marker: "" while its table forms, then the grant's JSON, until
the game is over). Fits server/ladder/queue.py's ``Waiting`` by shape; the cluster never
imports the ladder (docs/architecture.md).
"""

from __future__ import annotations

from redis.asyncio import Redis

from server.cluster.directory import PREFIX

BASE = f"{PREFIX}:rq:"
#: a popped account's marker while its table forms; the grant's, past any game's length
FORMING_S = 120
GRANT_S = 12 * 3600

#: KEYS where, name, since, queue:<lobby>; ARGV account, lobby, name, players, base, ttl
JOIN = """
local account, lobby, name = ARGV[1], ARGV[2], ARGV[3]
local players, base, ttl = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
if redis.call('EXISTS', base .. 'seat:' .. account) == 1 then return {'seated'} end
if redis.call('HEXISTS', KEYS[1], account) == 1 then return {'queued'} end
local t = redis.call('TIME')
redis.call('HSET', KEYS[1], account, lobby)
redis.call('HSET', KEYS[2], account, name)
redis.call('HSET', KEYS[3], account, t[1] .. '.' .. string.format('%06d', tonumber(t[2])))
redis.call('RPUSH', KEYS[4], account)
if redis.call('LLEN', KEYS[4]) < players then return {'waiting'} end
local out = {'formed'}
for i = 1, players do
  local a = redis.call('LPOP', KEYS[4])
  table.insert(out, a)
  table.insert(out, redis.call('HGET', KEYS[2], a))
  redis.call('HDEL', KEYS[1], a)
  redis.call('HDEL', KEYS[2], a)
  redis.call('HDEL', KEYS[3], a)
  redis.call('SET', base .. 'seat:' .. a, '', 'EX', ttl)
end
return out
"""
#: KEYS where, name, since; ARGV account, base. 1 when it left a queue
LEAVE = """
local lobby = redis.call('HGET', KEYS[1], ARGV[1])
if not lobby then return 0 end
redis.call('LREM', ARGV[2] .. 'queue:' .. lobby, 0, ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""
#: KEYS where, name, since, queue:<lobby>; ARGV lobby, then account, name pairs (front first)
REQUEUE = """
local t = redis.call('TIME')
for i = #ARGV - 1, 2, -2 do
  local a = ARGV[i]
  redis.call('LPUSH', KEYS[4], a)
  redis.call('HSET', KEYS[1], a, ARGV[1])
  redis.call('HSET', KEYS[2], a, ARGV[i + 1])
  redis.call('HSET', KEYS[3], a, t[1])
end
return 1
"""


class RedisWaiting:
    """``Waiting`` (server/ladder/queue.py) shared by every node through Redis."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._join = redis.register_script(JOIN)
        self._leave = redis.register_script(LEAVE)
        self._requeue = redis.register_script(REQUEUE)
        self._hashes = [BASE + "where", BASE + "name", BASE + "since"]

    async def join(
        self, account: int, name: str, lobby: str, players: int
    ) -> list[tuple[int, str]] | str:
        keys = [*self._hashes, f"{BASE}queue:{lobby}"]
        args = [str(account), lobby, name, str(players), BASE, str(FORMING_S)]
        reply = await self._join(keys=keys, args=args)
        if reply[0] != "formed":
            return str(reply[0])
        rest = reply[1:]
        return [(int(rest[i]), str(rest[i + 1])) for i in range(0, len(rest), 2)]

    async def leave(self, account: int) -> bool:
        return bool(await self._leave(keys=self._hashes, args=[str(account), BASE]))

    async def where(self, account: int) -> tuple[str, float, int] | None:
        found = await self.redis.hget(BASE + "where", str(account))
        if found is None:
            return None
        lobby = found.decode() if isinstance(found, bytes) else str(found)
        since = await self.redis.hget(BASE + "since", str(account))
        count = await self.redis.llen(f"{BASE}queue:{lobby}")
        return str(lobby), float(since or 0), int(count)

    async def counts(self, lobbies: list[str]) -> dict[str, int]:
        return {lobby: int(await self.redis.llen(f"{BASE}queue:{lobby}")) for lobby in lobbies}

    async def put_grant(self, account: int, grant: bytes) -> None:
        await self.redis.set(f"{BASE}seat:{account}", grant.decode(), ex=GRANT_S)

    async def grant(self, account: int) -> bytes | None:
        found = await self.redis.get(f"{BASE}seat:{account}")
        return None if found is None else str(found).encode()

    async def release(self, accounts: list[int]) -> None:
        if accounts:
            await self.redis.delete(*(f"{BASE}seat:{a}" for a in accounts))

    async def requeue(self, lobby: str, group: list[tuple[int, str]]) -> None:
        if not group:
            return
        args = [lobby, *(x for a, n in group for x in (str(a), n))]
        await self._requeue(keys=[*self._hashes, f"{BASE}queue:{lobby}"], args=args)
