"""The profile's points bar and dan names (static/js/dan.js, i18n.js danName) agree with the
server's own tables (server/ladder/tenhou_dan.py) for every one of the 21 ranks: the bar's end
is the rank's promotion threshold, a rank starts where the server starts it, and the Japanese
names are Tenhou's, as the API's ``dan_name`` gives them."""

from __future__ import annotations

import json
import shutil
import subprocess

from server.ladder.tenhou_dan import NAMES, START, THRESHOLD, Dan
from tests.client.conftest import ROOT

SCRIPT = """
const dan = await import(process.argv[1] + '/static/js/dan.js');
const i18n = await import(process.argv[1] + '/static/js/i18n.js');
const out = {};
for (const lang of ['en', 'ja', 'zh']) {
  i18n.setLang(lang);
  out[lang] = [...Array(21).keys()].map(i18n.danName);
}
out.promotion = [...Array(21).keys()].map(dan.promotionAt);
out.start = [...Array(21).keys()].map(dan.startAt);
out.bar = [[10, 250], [10, -5], [9, 100], [20, 0], [0, 0]].map(([d, p]) => dan.promotionBar(d, p));
console.log(JSON.stringify(out));
"""


def _run() -> dict[str, list[object]]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is needed (Debian: apt-get install nodejs)"
    run = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, str(ROOT)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, list[object]] = json.loads(run.stdout)
    return found


def test_the_bar_and_the_names_follow_the_servers_tables() -> None:
    got = _run()
    assert got["promotion"] == [THRESHOLD[d] for d in Dan]
    assert got["start"] == [START[d] for d in Dan]
    assert got["ja"] == NAMES
    assert got["zh"][0] == "新人" and got["zh"][9] == "1级" and got["zh"][20] == "天凤位"
    assert got["en"][0] == "Novice" and got["en"][10] == "1 dan" and got["en"][19] == "10 dan"
    assert len(set(got["en"])) == len(set(got["zh"])) == 21
    # 初段 250 of 400; below 0 the bar is empty (demotion is the server's); 1級 at its
    # threshold; 天鳳位 has none; 新人 at 0
    assert got["bar"] == [
        {"value": 250, "max": 400, "start": 200, "left": 150},
        {"value": 0, "max": 400, "start": 200, "left": 405},
        {"value": 100, "max": 100, "start": 0, "left": 0},
        None,
        {"value": 0, "max": 20, "start": 0, "left": 20},
    ]
