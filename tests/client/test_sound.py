"""Sounds are made by the page (WebAudio) and only when the player turned them on."""

from __future__ import annotations

from playwright.sync_api import Page

SCRIPT = """async (on) => {
  const made = [];
  const Real = window.AudioContext;
  window.AudioContext = class extends Real { constructor() { super(); made.push(this); } };
  const { play, setSound } = await import('./js/sound.js');
  setSound(on);
  for (const name of ['discard', 'call', 'riichi', 'win', 'turn']) play(name);
  const state = made.length ? made[0].state : null;
  setSound(false);
  return { contexts: made.length, state };
}"""


def test_no_audio_is_made_while_sound_is_off(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    assert page.evaluate(SCRIPT, False) == {"contexts": 0, "state": None}


def test_sound_on_makes_every_sound_from_one_audio_context(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    got = page.evaluate(SCRIPT, True)
    assert got["contexts"] == 1
    assert got["state"] in ("running", "suspended")  # suspended until a user gesture
