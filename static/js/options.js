// The player's own options at the table: auto-win, no calls, auto-tsumogiri in riichi, sound.
// Kept in the page's storage; they only choose among the answers the inquiry offers.

import { soundOn, setSound } from "./sound.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";

export const prefs = () => JSON.parse(localStorage.getItem("prefs") || "{}");
const savePrefs = (p) => localStorage.setItem("prefs", JSON.stringify(p));

/** The ⚙ menu of options; onChange runs after any of them changes. */
export function toggles(onChange) {
  const box = el("div", "menu");
  const check = (id, on, label, change) => {
    const c = el("input", { type: "checkbox", id, onchange: () => change(c.checked) });
    c.checked = on;
    return el("label", null, c, label);
  };
  const p = prefs();
  for (const key of ["autoWin", "noCalls", "autoTsumogiri"]) {
    box.append(check(`opt-${key}`, !!p[key], t(key), (on) => { const q = prefs(); q[key] = on; savePrefs(q); onChange(); }));
  }
  box.append(check("opt-sound", soundOn(), t("sound"), setSound));
  return el("details", "toggles", el("summary", { id: "opts" }, "⚙"), box);
}
