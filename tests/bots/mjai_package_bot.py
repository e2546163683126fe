"""An mjai.app submission bot written on the ``mjai`` package's ``Bot``, run as a process.

Run by the package's own Python (tests/bots/mjai_venv.py), never ours: it plays a seat
through the package's ``Bot`` (libriichi's ``PlayerState`` tracks the hand and says what is
legal) and its helpers only. It wins when it can, declares riichi when it may (tenpai,
closed), discards by the package's efficiency helper (``find_improving_tiles``: the discard
leaving the lowest shanten with the most tiles that improve it) and passes every call.

mjai.app runs a submission as ``python bot.py PLAYER_ID`` and feeds it one JSON array of
mjai events per line, one reaction line back (``Bot.start``). Our server runs the command it
was registered with, without a seat number, so without ``PLAYER_ID`` the bot takes its seat
from the first line's ``start_game`` (``"id"``, as the mjai protocol has it), then runs the
package's own loop::

    VENV_PYTHON tests/bots/mjai_package_bot.py [PLAYER_ID]
"""

from __future__ import annotations

import json
import sys

from mjai import Bot


class EfficiencyBot(Bot):
    """Win, riichi, discard for tile efficiency, never call."""

    def think(self) -> str:
        if self.can_tsumo_agari:
            return self.action_tsumo_agari()
        if self.can_ron_agari:
            return self.action_ron_agari()
        if not self.can_discard:  # a call offered (pon, chi, kan) or nothing to do: pass
            return self.action_nothing()
        if self.self_riichi_accepted:  # an ankan offered in riichi: declined
            return self.action_discard(self.last_self_tsumo)
        if self.self_riichi_declared:  # our reach went out: the discard that keeps tenpai
            return self.action_discard(self._best(self.discardable_tiles_riichi_declaration))
        if self.can_riichi:
            return self.action_riichi()
        # not the package's ``discardable_tiles``: it looks a red five up by its own name
        # in ``forbidden_tiles`` (keyed without the red mark) and raises KeyError
        allowed = [t for t in self.tehai_mjai if not self.forbidden_tiles.get(t[:2], False)]
        return self.action_discard(self._best(allowed))

    def _best(self, allowed: list[str]) -> str:
        """The helper's first choice (most ukeire at the lowest shanten) among ``allowed``;
        the drawn tile when it names none of them."""
        hand = self.tehai_mjai
        for candidate in self.find_improving_tiles():
            tile = str(candidate["discard_tile"])
            if tile in allowed and tile in hand:
                return tile
        drawn = str(self.last_self_tsumo)
        return drawn if drawn in allowed or not allowed else allowed[0]


def main() -> None:
    if len(sys.argv) > 1:  # as mjai.app runs it
        EfficiencyBot(player_id=int(sys.argv[1])).start()
        return
    first = sys.stdin.readline()
    if not first:
        return
    events = json.loads(first)
    seat = next(int(e["id"]) for e in events if e.get("type") == "start_game")
    bot = EfficiencyBot(player_id=seat)
    sys.stdout.write(bot.react(first.strip()) + "\n")
    sys.stdout.flush()
    bot.start()


if __name__ == "__main__":
    main()
