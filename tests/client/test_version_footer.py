"""The page's footer names the server's release (issue 44): what /healthz says, which is
server/version.py's; the table has no footer (it keeps the whole screen)."""

from __future__ import annotations

from playwright.sync_api import Page

from server.version import VERSION


def test_the_lobby_footer_shows_the_servers_version(server: str, page: Page) -> None:
    page.goto(server + "/")
    page.wait_for_function(
        "v => document.querySelector('footer#version')?.textContent.includes(v)", arg=VERSION
    )
    assert page.inner_text("footer#version") == f"riichi-server {VERSION}"
    page.goto(server + "/#/leaderboard")
    page.wait_for_function(
        "v => document.querySelector('footer#version')?.textContent.includes(v)", arg=VERSION
    )
