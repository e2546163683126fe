"""Sounds are made by the page (WebAudio): on by default, off when the player mutes them, at
the volume they set."""

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


#: counts the sounds a page starts (oscillators and noise bursts), from its first script on
COUNT = """window.__sounds = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__sounds++; return super.createOscillator(); }
  createBufferSource() { window.__sounds++; return super.createBufferSource(); }
};"""


def test_sound_is_on_by_default_at_the_table_and_the_mute_button_silences_it(
    server: str, page: Page
) -> None:
    from tests.client.conftest import wait_until
    from tests.client.test_keyboard import start_game

    page.add_init_script(COUNT)
    start_game(page, server)
    # nothing stored: sound on; the bots' discards and this seat's turn were heard
    assert page.evaluate("localStorage.getItem('sound')") is None
    wait_until(page, "window.__sounds > 0")
    mute = page.locator("#mute")
    assert (
        mute.get_attribute("aria-pressed") == "false"
        and mute.get_attribute("aria-label") == "Mute sounds"
    )
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('sound')") == "0"
    heard = page.evaluate("window.__sounds")
    # a few more turns (the page discards its leftmost tile) go by in silence
    for _ in range(3):
        page.wait_for_selector(".own .tile.can", timeout=20000)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
    assert page.evaluate("window.__sounds") == heard
    # the volume in the options menu is the master gain's
    mute.click()
    page.click("#opts")
    page.fill("#opt-volume", "30")
    assert page.evaluate("localStorage.getItem('volume')") == "0.3"
    level = page.evaluate("import('./js/sound.js').then(m => m.masterGain())")
    assert abs(level - 0.3) < 1e-6
    page.screenshot(path="/tmp/shots/options-menu.png")
