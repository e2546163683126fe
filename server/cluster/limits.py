"""Per-client token buckets kept in Redis, so a client's budget is one budget on every node.

The bucket is updated by a Lua script (atomic in Redis) that reads Redis's own clock, so the
nodes' clocks need not agree. Same arithmetic as server/edge/limits.py's ``Limiter``.
"""

from __future__ import annotations

from redis.asyncio import Redis

from server.cluster.directory import PREFIX

#: KEYS[1] bucket; ARGV rate per second, burst. Returns the wait in seconds (0: taken).
TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate)
local wait = 0
if tokens < 1 then wait = (1 - tokens) / rate else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""


class SharedLimiter:
    """A ``Limiter`` whose buckets live in Redis under ``riichi:limit:<name>:<client>``."""

    def __init__(self, redis: Redis, name: str, per_min: float, burst: float) -> None:
        self.redis = redis
        self.name = name
        self.rate = per_min / 60.0
        self.burst = max(1.0, burst)
        self._take = redis.register_script(TAKE)

    async def acquire(self, key: str) -> float:
        """0 when ``key`` may act now (and it is counted), else the seconds until it may."""
        bucket = f"{PREFIX}:limit:{self.name}:{key}"
        wait = await self._take(keys=[bucket], args=[repr(self.rate), repr(self.burst)])
        return float(wait)
