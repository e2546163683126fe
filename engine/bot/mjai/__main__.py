"""The stdio loop of ``python -m engine.bot.mjai``: the only I/O of the mjai bots.

The package's ``__main__``, so the adapter (engine/bot/mjai/player.py) never imports this
module back: ``python -m`` runs this file, and this file imports the adapter.

engine/ is pure (no I/O, no clock); this module is the one place a built-in bot touches a
stream, so the adapter (engine.bot.mjai) stays testable as plain functions and the server can
run the same bots in process. Each stdin line is one mjai event, or a JSON array of events
(mjai.app batches them); one reaction line is written per input line, ``{"type":"none"}``
when there is nothing to do. A bad line or a bot error answers ``none`` and is reported on
stderr: a host must never lose its player to one odd event.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Any

from engine.bot import BOTS, make
from engine.bot.mjai.player import NONE, MjaiPlayer


def react_line(player: MjaiPlayer, line: str) -> dict[str, Any]:
    """The reaction to one input line (the last event's, for a batch)."""
    data = json.loads(line)
    events = data if isinstance(data, list) else [data]
    answer = NONE
    for ev in events:
        answer = player.react(ev)
    return answer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bot.mjai", description=__doc__)
    parser.add_argument("--bot", choices=sorted(BOTS), default="strong")
    parser.add_argument("id", nargs="?", type=int, help="seat id (wins over start_game's id)")
    parser.add_argument(
        "--meta",
        action="store_true",
        help="answer decisions with Mortal's meta.q_values / mask_bits (also when the"
        " environment sets MORTAL_REVIEW_MODE=1, as mjai-reviewer and engine.review do)",
    )
    args = parser.parse_args(argv)
    meta = args.meta or os.environ.get("MORTAL_REVIEW_MODE") == "1"
    player = MjaiPlayer(make(args.bot), seat=args.id, meta=meta)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = react_line(player, line)
        except Exception:  # one bad event must not kill the seat
            traceback.print_exc(file=sys.stderr)
            answer = NONE
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
