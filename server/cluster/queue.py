"""The ranked queue in Redis: every node's accounts wait in one queue per lobby, and each
step is one Lua script (atomic in Redis): a join appends, and the lobby's draw (any node's)
takes each table it drew only when every one of its accounts still waits there, popping
them and marking them seated before any other node's step runs: a table forms on exactly
one node (the one whose take popped it) and no account is popped twice.

Keys (under ``riichi:rq:``): ``where`` (account -> lobby), ``name``, ``since`` (queued at,
by Redis's clock), ``addr`` (the seat key the draw keeps apart, server/ladder/seating.py)
and ``beat`` (the last heartbeat, Redis's clock), ``queue:<lobby>`` (a list, oldest first)
and ``seat:<account>`` (the seat marker: "" while its table forms, then the grant's JSON,
until the game is over). Fits server/ladder/queue.py's ``Waiting`` by shape; the cluster
never imports the ladder (docs/architecture.md).
"""

from __future__ import annotations

from redis.asyncio import Redis

from server.cluster.directory import PREFIX

BASE = f"{PREFIX}:rq:"
#: a popped account's marker while its table forms; the grant's, past any game's length
FORMING_S = 120
GRANT_S = 12 * 3600
#: Redis's clock as seconds with microseconds (a string Lua and Python both read)
_NOW = """
local t = redis.call('TIME')
local now = t[1] .. '.' .. string.format('%06d', tonumber(t[2]))
"""
#: every hash an entry has, in KEYS order
_DROP = """
local function drop(a)
  for i = 1, 5 do redis.call('HDEL', KEYS[i], a) end
end
"""

#: KEYS where, name, since, addr, beat; ARGV account, lobby, name, key, base
JOIN = (
    _NOW
    + """
local account, lobby = ARGV[1], ARGV[2]
if redis.call('EXISTS', ARGV[5] .. 'seat:' .. account) == 1 then return 'seated' end
if redis.call('HEXISTS', KEYS[1], account) == 1 then return 'queued' end
redis.call('HSET', KEYS[1], account, lobby)
redis.call('HSET', KEYS[2], account, ARGV[3])
redis.call('HSET', KEYS[3], account, now)
redis.call('HSET', KEYS[4], account, ARGV[4])
redis.call('HSET', KEYS[5], account, now)
redis.call('RPUSH', ARGV[5] .. 'queue:' .. lobby, account)
return 'waiting'
"""
)
#: KEYS where, beat; ARGV account
BEAT = (
    _NOW
    + """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[2], ARGV[1], now) end
return 1
"""
)
#: KEYS where, name, since, addr, beat, queue:<lobby>; ARGV stale_s. The stale accounts
#: (dropped now), then 0, then (account, name, key) of everyone left, oldest first
POOL = (
    _NOW
    + _DROP
    + """
local cutoff = tonumber(now) - tonumber(ARGV[1])
local stale, left = {}, {}
for _, a in ipairs(redis.call('LRANGE', KEYS[6], 0, -1)) do
  local beat = tonumber(redis.call('HGET', KEYS[5], a) or '0')
  if beat < cutoff then
    redis.call('LREM', KEYS[6], 0, a)
    drop(a)
    table.insert(stale, a)
  else
    table.insert(left, a)
    table.insert(left, redis.call('HGET', KEYS[2], a))
    table.insert(left, redis.call('HGET', KEYS[4], a))
  end
end
table.insert(stale, '0')
for _, x in ipairs(left) do table.insert(stale, x) end
return stale
"""
)
#: KEYS where, name, since, addr, beat, queue:<lobby>; ARGV lobby, base, ttl, then each
#: table as its size and its accounts. Each table taken: its size, then (account, name, key)
TAKE = (
    _DROP
    + """
local lobby, base, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local out, i = {}, 4
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  local ok, seen = true, {}
  for j = i + 1, i + n do
    local a = ARGV[j]
    if seen[a] or redis.call('HGET', KEYS[1], a) ~= lobby
       or redis.call('EXISTS', base .. 'seat:' .. a) == 1 then ok = false end
    seen[a] = true
  end
  if ok then
    table.insert(out, n)
    for j = i + 1, i + n do
      local a = ARGV[j]
      table.insert(out, a)
      table.insert(out, redis.call('HGET', KEYS[2], a))
      table.insert(out, redis.call('HGET', KEYS[4], a))
      redis.call('LREM', KEYS[6], 0, a)
      drop(a)
      redis.call('SET', base .. 'seat:' .. a, '', 'EX', ttl)
    end
  end
  i = i + n + 1
end
return out
"""
)
#: KEYS where, name, since, addr, beat; ARGV account, base. 1 when it left a queue
LEAVE = (
    _DROP
    + """
local lobby = redis.call('HGET', KEYS[1], ARGV[1])
if not lobby then return 0 end
redis.call('LREM', ARGV[2] .. 'queue:' .. lobby, 0, ARGV[1])
drop(ARGV[1])
return 1
"""
)
#: KEYS where, name, since, addr, beat, queue:<lobby>; ARGV lobby, then (account, name,
#: key) triples, front first
REQUEUE = (
    _NOW
    + """
for i = #ARGV - 2, 2, -3 do
  local a = ARGV[i]
  redis.call('LPUSH', KEYS[6], a)
  redis.call('HSET', KEYS[1], a, ARGV[1])
  redis.call('HSET', KEYS[2], a, ARGV[i + 1])
  redis.call('HSET', KEYS[3], a, now)
  redis.call('HSET', KEYS[4], a, ARGV[i + 2])
  redis.call('HSET', KEYS[5], a, now)
end
return 1
"""
)

#: one waiting account: (account, name, seat key)
Entry = tuple[int, str, str]


class RedisWaiting:
    """``Waiting`` (server/ladder/queue.py) shared by every node through Redis."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._join = redis.register_script(JOIN)
        self._beat = redis.register_script(BEAT)
        self._pool = redis.register_script(POOL)
        self._take = redis.register_script(TAKE)
        self._leave = redis.register_script(LEAVE)
        self._requeue = redis.register_script(REQUEUE)
        self._hashes = [BASE + h for h in ("where", "name", "since", "addr", "beat")]

    async def join(self, account: int, name: str, lobby: str, key: str) -> str:
        args = [str(account), lobby, name, key, BASE]
        return _text(await self._join(keys=self._hashes, args=args))

    async def beat(self, account: int) -> None:
        await self._beat(keys=[BASE + "where", BASE + "beat"], args=[str(account)])

    async def pool(self, lobby: str, stale_s: float) -> tuple[list[Entry], list[int]]:
        reply = [_text(x) for x in await self._pool(keys=self._lobby(lobby), args=[stale_s])]
        cut = reply.index("0")
        rest = reply[cut + 1 :]
        entries = [(int(rest[i]), rest[i + 1], rest[i + 2]) for i in range(0, len(rest), 3)]
        return entries, [int(a) for a in reply[:cut]]

    async def take(self, lobby: str, tables: list[list[int]]) -> list[list[Entry]]:
        args: list[str] = [lobby, BASE, str(FORMING_S)]
        for table in tables:
            args += [str(len(table)), *(str(a) for a in table)]
        reply = [_text(x) for x in await self._take(keys=self._lobby(lobby), args=args)]
        taken: list[list[Entry]] = []
        i = 0
        while i < len(reply):
            n = int(reply[i])
            part = reply[i + 1 : i + 1 + 3 * n]
            taken.append([(int(part[j]), part[j + 1], part[j + 2]) for j in range(0, 3 * n, 3)])
            i += 1 + 3 * n
        return taken

    def _lobby(self, lobby: str) -> list[str]:
        return [*self._hashes, f"{BASE}queue:{lobby}"]

    async def leave(self, account: int) -> bool:
        return bool(await self._leave(keys=self._hashes, args=[str(account), BASE]))

    async def where(self, account: int) -> tuple[str, float, int] | None:
        found = await self.redis.hget(BASE + "where", str(account))
        if found is None:
            return None
        lobby = _text(found)
        since = await self.redis.hget(BASE + "since", str(account))
        count = await self.redis.llen(f"{BASE}queue:{lobby}")
        return lobby, float(_text(since) if since is not None else 0), int(count)

    async def counts(self, lobbies: list[str]) -> dict[str, int]:
        return {lobby: int(await self.redis.llen(f"{BASE}queue:{lobby}")) for lobby in lobbies}

    async def put_grant(self, account: int, grant: bytes) -> None:
        await self.redis.set(f"{BASE}seat:{account}", grant.decode(), ex=GRANT_S)

    async def grant(self, account: int) -> bytes | None:
        found = await self.redis.get(f"{BASE}seat:{account}")
        return None if found is None else _text(found).encode()

    async def release(self, accounts: list[int]) -> None:
        if accounts:
            await self.redis.delete(*(f"{BASE}seat:{a}" for a in accounts))

    async def requeue(self, lobby: str, group: list[Entry]) -> None:
        if not group:
            return
        args = [lobby, *(x for a, n, k in group for x in (str(a), n, k))]
        await self._requeue(keys=self._lobby(lobby), args=args)


def _text(value: object) -> str:
    """A Redis reply as text (a client may decode replies, or not)."""
    return value.decode() if isinstance(value, bytes) else str(value)
