"""One source of the WebSocket close codes (issue 16): ``server.edge.close_codes.CloseCode``. The
client's ``static/js/close_codes.js`` and docs/protocol.md's table are generated from it
(``python -m server.edge.close_codes``); these tests fail when either is stale or when net.js
spells a code as a number instead of reading it by name."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from server.edge.close_codes import (
    DOC,
    JS,
    CloseCode,
    doc_with_table,
    main,
    render_js,
    render_table,
)
from tests import system
from tests.client.conftest import ROOT

NET = ROOT / "static" / "js" / "net.js"
HINT = "run: python -m server.edge.close_codes"


def _node(script: str) -> object:
    node = system.node()
    run = subprocess.run(
        [node, "--input-type=module", "-e", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_client_module_is_generated_from_the_enum() -> None:
    assert JS.read_text() == render_js(), HINT
    # what the browser gets when it imports it, not only its text
    got = _node(
        'const m = await import("./static/js/close_codes.js");console.log(JSON.stringify(m.CLOSE));'
    )
    assert got == {code.name: code.value for code in CloseCode}


def test_the_protocol_doc_table_is_generated_from_the_enum() -> None:
    doc = DOC.read_text()
    assert render_table() in doc, HINT
    assert doc_with_table(doc) == doc, HINT
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", doc, re.M)
    assert [(int(v), n) for v, n in rows] == [(c.value, c.name) for c in CloseCode]


def test_a_stale_table_or_a_doc_without_one_is_caught() -> None:
    doc = DOC.read_text()
    stale = doc.replace("| 4006 | `KICKED` |", "| 4007 | `KICKED` |")
    assert stale != doc and doc_with_table(stale) == doc
    with pytest.raises(ValueError):
        doc_with_table(doc.replace("<!-- end of close codes -->", ""))
    assert main(["--check"]) == 0  # the checked-in files are current


def test_net_js_reads_the_codes_by_name() -> None:
    code_lines = [
        line
        for line in NET.read_text().splitlines()
        if not line.lstrip().startswith(("//", "*", "/**"))
    ]
    text = "\n".join(code_lines)
    assert 'from "./close_codes.js"' in text
    # 1000 is also one of the reconnect waits; every other code must come by name
    for code in CloseCode:
        if code is not CloseCode.NORMAL:
            assert not re.search(rf"\b{code.value}\b", text), f"{code.name} spelt as a number"
    # each code the page stops on is one the server sends (a misspelt name would be undefined)
    final = _node(
        'const m = await import("./static/js/net.js");'
        "console.log(JSON.stringify([Object.keys(m.FINAL_CLOSE), m.CLOSE_RESTART]));"
    )
    assert isinstance(final, list)
    stops, restart = final
    assert {int(k) for k in stops} == {
        CloseCode.BAD_TOKEN,
        CloseCode.REPLACED,
        CloseCode.REFUSED,
        CloseCode.KICKED,
    }
    assert restart == CloseCode.RESTARTING
