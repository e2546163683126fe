"""axe-core in the browser tests: installed from the npm registry into tests/client/axe/ (its
package-lock.json pins it; `npm ci` when node_modules is missing), and put into a page by the
test only (evaluated through the DevTools protocol: the server never serves it and the page's
CSP stays as it is)."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache

from playwright.sync_api import Page

from tests.client.conftest import ROOT

AXE_DIR = ROOT / "tests" / "client" / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
#: the impacts that fail a page
FAILING = ("serious", "critical")


@cache
def axe_source() -> str:
    """axe.min.js, installed with `npm ci` from the committed lock file when it is missing."""
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        assert npm, "npm is needed to install axe-core for the accessibility tests"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AXE_DIR, check=True, timeout=300)
    return AXE_JS.read_text()


def violations(page: Page, context: str = "document") -> list[str]:
    """axe's serious and critical violations on the page as it is now, one line each."""
    if not page.evaluate("!!window.axe"):
        page.evaluate(axe_source() + "\n;true")
    found: list[dict[str, object]] = page.evaluate(
        """async (ctx) => {
          const r = await axe.run(ctx === 'document' ? document : document.querySelector(ctx),
            { resultTypes: ['violations'] });
          return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ')) }));
        }""",
        context,
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}"
        for v in found
        if v["impact"] in FAILING
    ]
