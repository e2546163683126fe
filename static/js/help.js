// Help while playing: the waits a discard leaves with their guaranteed-minimum value (from the
// inquiry's tenpai info), the current waits, and the server's furiten warning.

import { tileEl } from "./tiles.js";
import { t, tileLabel } from "./i18n.js";
import { el } from "./dom.js";

const waitTile = (kind) => kind * 4 + 3; // a plain (never red) copy, to draw the kind

function waitRow(w) {
  const value = w.yakuman ? t("yakuman") : w.han > 0 ? `${w.han} ${t("han")} ${w.fu} ${t("fu")} · ${w.points}` : t("noValue");
  return el("div", "w", tileEl(waitTile(w.kind)), `${tileLabel(w.kind)} — ${value}`);
}

let tip = null;

/** Show the waits of one discard candidate near `anchor`. */
export function showTip(anchor, tenpai) {
  hideTip();
  if (!tenpai || !tenpai.length) return;
  tip = el("div", { class: "tip", id: "tip" }, el("div", null, `${t("waits")}:`), ...tenpai.map(waitRow));
  document.body.append(tip);
  // placed through the CSSOM (allowed by the CSP, unlike a style attribute)
  const r = anchor.getBoundingClientRect();
  const w = tip.offsetWidth, hgt = tip.offsetHeight;
  tip.style.left = `${Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2))}px`;
  tip.style.top = `${Math.max(4, r.top - hgt - 8)}px`;
}

export function hideTip() { if (tip) { tip.remove(); tip = null; } }

/** Status line: current waits (kept from the last discard's tenpai info) and the furiten
 * warning exactly as the server last said it (the seat's own Draw/Discard `furiten`). */
export function statusEl(tb, seat, waits) {
  const box = el("div", "status");
  if (seat === null) return box;
  if (waits && waits.length) box.append(el("span", "tenpai", `${t("tenpai")}: `, ...waits.map((w) => tileEl(waitTile(w.kind)))));
  if (tb.players[seat].furiten === true) box.append(el("span", { class: "furiten", id: "furiten" }, t("furiten")));
  return box;
}
