// The player's own options at the table: auto-win, no calls, no chii, skip kans, auto-tsumogiri
// in riichi, and sound (on/off and volume). Kept in the page's storage; they only choose among
// the answers the inquiry offers (a call left out is answered by passing, here in the page).

import { soundOn, setSound, getVolume, setVolume } from "./sound.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";

export const prefs = () => JSON.parse(localStorage.getItem("prefs") || "{}");
const savePrefs = (p) => localStorage.setItem("prefs", JSON.stringify(p));

/** The option keys, in the menu's order. */
export const OPTION_KEYS = ["autoWin", "noCalls", "noChii", "noKan", "autoTsumogiri"];

/** The ⚙ menu of options; onChange runs after any of them changes. */
export function toggles(onChange) {
  const box = el("div", "menu");
  const check = (id, on, label, change) => {
    const c = el("input", { type: "checkbox", id, onchange: () => change(c.checked) });
    c.checked = on;
    return el("label", null, c, label);
  };
  const p = prefs();
  for (const key of OPTION_KEYS) {
    box.append(check(`opt-${key}`, !!p[key], t(key), (on) => { const q = prefs(); q[key] = on; savePrefs(q); onChange(); }));
  }
  box.append(check("opt-sound", soundOn(), t("sound"), (on) => { setSound(on); onChange(); }));
  const vol = el("input", { type: "range", id: "opt-volume", min: "0", max: "100", step: "5",
    value: String(Math.round(getVolume() * 100)), oninput: () => setVolume(Number(vol.value) / 100) });
  box.append(el("label", null, t("volume"), vol));
  return el("details", "toggles", el("summary", { id: "opts", "aria-label": t("options"), title: t("options") }, "⚙"), box);
}

/** The header's mute button: a speaker that says what a press does; onChange after a press. */
export function muteButton(onChange = () => {}) {
  const b = el("button", { type: "button", id: "mute", class: "mute" });
  const show = () => {
    // a speaker drawn in SVG (no emoji font needed), with waves or a cross
    const mark = soundOn() ? '<path d="M15 8.5a5 5 0 0 1 0 7M17.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
      : '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
    b.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${mark}</svg>`;
    const c = document.getElementById("opt-sound");
    if (c) c.checked = soundOn();
    b.setAttribute("aria-label", soundOn() ? t("mute") : t("unmute"));
    b.setAttribute("aria-pressed", soundOn() ? "false" : "true");
    b.title = b.getAttribute("aria-label");
  };
  b.addEventListener("click", () => { setSound(!soundOn()); show(); onChange(); });
  show();
  b.sync = show;
  return b;
}
