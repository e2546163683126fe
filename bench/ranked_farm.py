"""Issue 43 #1 measured from outside: four accounts of one address queue into an empty ranked
lobby and none of them connects. How soon are they seated, how long does the tonpuusen take,
and does it count?

    python3 bench/ranked_farm.py [BASE_S] [BANK_S]      (defaults 0.2 and 1.0)

A real server in this process (tests/server/live.py), API clients only. On 91c6984 the game
ended in about 1.4 s and counted; docs/security.md section 9 holds this branch's figures.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.live import live_server

PASSWORD = "correct horse battery"


async def farm(base_s: float, bank_s: float) -> dict[str, Any]:
    lobby = [{"name": "q", "preset": "tenhou-tonpuu", "base_s": base_s, "bank_s": bank_s}]
    settings = {
        "ranked_lobbies": json.dumps(lobby),
        "start_grace_s": 0.0,
        "next_round_s": max(base_s, 0.1),
        "ranked_draw_s": 0.2,
    }
    with tempfile.TemporaryDirectory() as tmp:
        async with (
            live_server(Path(tmp), **settings) as (host, _),
            httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
        ):
            tokens = []
            for i in range(4):
                body = {"name": f"farm{i}", "password": PASSWORD}
                await http.post("/api/accounts", json=body)
                tokens.append((await http.post("/api/session", json=body)).json()["token"])
                http.cookies.clear()
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            for a in auth:
                await http.post("/api/queue", json={"lobby": "q"}, headers=a)
            started = time.monotonic()
            while (grant := (await http.get("/api/queue", headers=auth[0])).json())[
                "state"
            ] != "seated":
                await asyncio.sleep(0.05)
            seated = time.monotonic() - started
            while (await http.get(f"/api/rooms/{grant['code']}")).json()["status"] != "finished":
                await asyncio.sleep(0.2)
            ended = time.monotonic() - started
            record = (await http.get(f"/api/games/{grant['game']}/record")).json()
            profile = (await http.get("/api/players/farm0")).json()
            return {
                "base_s": base_s,
                "bank_s": bank_s,
                "seated_after_s": round(seated, 2),
                "ended_after_s": round(ended, 1),
                "decisions": len(record["decisions"]),
                "timeouts": sum(1 for d in record["decisions"] if d[4]),
                "counted": record["result"].get("counted"),
                "reason": record["result"].get("reason"),
                "standings": profile["lobbies"],
                "history": profile["history"][:1],
            }


def main(argv: list[str]) -> int:
    base_s = float(argv[0]) if argv else 0.2
    bank_s = float(argv[1]) if len(argv) > 1 else 1.0
    found = asyncio.run(farm(base_s, bank_s))
    print(json.dumps(found, ensure_ascii=False))
    return 0 if found["decisions"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
