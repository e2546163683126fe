"""What a game's end looks like: a spectator tab opened on (or left open at) a finished game
shows the last hand's result, then the standings, and does not reconnect in a loop; a win
screen shows the winner's called melds (issue 13, items 1, 2 and 5)."""

from __future__ import annotations

import json
import time
import urllib.request

from playwright.sync_api import Page, WebSocket

from tests.client.conftest import shot


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def _status(server: str, game: str) -> object:
    with urllib.request.urlopen(f"{server}/api/games/{game}/record?format=json", timeout=30) as r:
        return json.loads(r.read()).get("status")


def test_a_spectator_of_a_finished_game_sees_the_last_result_and_stays_connected_once(
    server: str, page: Page
) -> None:
    room = _post(
        f"{server}/api/rooms",
        {"bots": 4, "preset": "tenhou-tonpuu", "base_s": 1, "bank_s": 0, "public": True},
    )
    game = str(room["game"])
    deadline = time.monotonic() + 120
    while _status(server, game) != "finished":
        assert time.monotonic() < deadline, "the all-bot game did not finish"
        time.sleep(0.5)
    time.sleep(1.5)  # past the spectator delay: the end itself has been released
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server}/#/watch/{game}")
    page.wait_for_selector(".overlay", timeout=15000)
    # a finished game's socket is closed by the server after `end`: no reconnecting to it
    page.wait_for_timeout(4000)
    assert len(sockets) == 1, f"{len(sockets)} connections in 4 s"
    assert page.locator("#conn.ended").count() == 1
    # the match's last hand is shown first, with the way on to the standings
    assert page.locator(".overlay .result #show-final").count() == 1
    assert not page.locator("#final").count()
    shot(page, "desktop-watch-finished")
    page.click("#show-final")
    page.wait_for_selector("#final")
    assert page.locator("#final table tr").count() == 5


def test_the_win_screen_shows_the_winners_called_melds(server: str, page: Page) -> None:
    """A hand won with a pon of 中 shows the pon beside the concealed tiles: the table's model
    is built from events as a live game builds it, and the result panel drawn from it."""
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file", state="attached")
    counts = page.evaluate(
        """async () => {
        const { newTable, apply } = await import('/js/model.js');
        const { fromEngine } = await import('/js/events.js');
        const { resultPanel } = await import('/js/result.js');
        const tb = newTable(4, 0);
        const hand = [0, 4, 8, 36, 40, 44, 72, 76, 80, 108, 109, 124, 125];
        for (const ev of [
          { type: 'BeginGame', players: 4, scores: [25000, 25000, 25000, 25000] },
          { type: 'RoundStarted', kyoku: 0, honba: 0, kyotaku: 0, dealer: 0,
            scores: [25000, 25000, 25000, 25000], dora_indicator: 50 },
          { type: 'Haipai', seat: 0, tiles: hand },
          { type: 'Draw', seat: 1, tile: null, remaining: 69 },
          { type: 'Discard', seat: 1, tile: 126, tsumogiri: true, riichi: false },
          { type: 'Call', seat: 0, meld: [1, [124, 125, 126], 126, 1, -1] },
          { type: 'Discard', seat: 0, tile: 108, tsumogiri: false, riichi: false },
        ]) for (const e of fromEngine(ev, tb)) apply(tb, e);
        const concealed = [0, 4, 8, 36, 40, 44, 72, 76, 80, 109];
        const agari = { type: 'Agari', winners: [0], from_seat: 2, tile: 110, ura_indicators: [],
          deltas: [2000, 0, -2000, 0], scores: [27000, 25000, 23000, 25000],
          wins: [{ seat: 0, from_seat: 2, tile: 110, hand: [...concealed, 110], pao_seat: -1,
            melds: [[1, [124, 125, 126], 126, 1, -1]],
            result: { han: 1, fu: 30, limit: null, yakuman: 0, ron: 2000, tsumo_other: 0,
              tsumo_dealer: 0, dora: 0, aka: 0, ura: 0, kita: 0,
              yaku: [{ name: 'yakuhai_chun', han: 1 }] } }] };
        const [ev] = fromEngine(agari, tb);
        apply(tb, ev);
        const fromEvent = resultPanel(tb, ev, null);
        // a log reader's win (the replay viewer's) carries no melds: the table's are used
        const wins = ev.wins.map((w) => ({ ...w, melds: undefined }));
        const bare = resultPanel(tb, { ...ev, wins }, null);
        document.body.append(fromEvent);
        const n = (p) => [p.querySelectorAll('.win .hand > .tile').length,
          p.querySelectorAll('.win .meld .tile').length];
        return [n(fromEvent), n(bare)];
    }"""
    )
    assert counts == [[11, 3], [11, 3]]
