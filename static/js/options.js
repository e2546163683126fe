// The player's own options at the table: auto-win, no calls, auto-tsumogiri in riichi, sound.
// Kept in the page's storage; they only choose among the answers the inquiry offers.

import { soundOn, setSound } from "./sound.js";
import { t } from "./i18n.js";

export const prefs = () => JSON.parse(localStorage.getItem("prefs") || "{}");
const savePrefs = (p) => localStorage.setItem("prefs", JSON.stringify(p));

/** The ⚙ menu of options; onChange runs after any of them changes. */
export function toggles(onChange) {
  const menu = document.createElement("details");
  menu.className = "toggles";
  const sum = document.createElement("summary");
  sum.textContent = "⚙";
  sum.id = "opts";
  const box = document.createElement("div");
  box.className = "menu";
  menu.append(sum, box);
  const p = prefs();
  for (const key of ["autoWin", "noCalls", "autoTsumogiri"]) {
    const l = document.createElement("label"), c = document.createElement("input");
    c.type = "checkbox"; c.id = `opt-${key}`; c.checked = !!p[key];
    c.addEventListener("change", () => { const q = prefs(); q[key] = c.checked; savePrefs(q); onChange(); });
    l.append(c, t(key));
    box.append(l);
  }
  const l = document.createElement("label"), c = document.createElement("input");
  c.type = "checkbox"; c.id = "opt-sound"; c.checked = soundOn();
  c.addEventListener("change", () => setSound(c.checked));
  l.append(c, t("sound"));
  box.append(l);
  return menu;
}
