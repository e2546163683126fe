// Help while playing: the waits a discard leaves with their guaranteed-minimum value (from the
// inquiry's tenpai info), the current waits, each with the copies still unseen from this seat,
// and the server's furiten warning.

import { tileEl } from "./tiles.js";
import { t, tileLabel } from "./i18n.js";
import { el } from "./dom.js";
import { seenCounts } from "./unseen.js";

const waitTile = (kind) => kind * 4 + 3; // a plain (never red) copy, to draw the kind

/** "3 left": the copies of a wait this seat has not seen (unseen.js); a dead wait says so. */
function leftEl(n) {
  return el("span", { class: `left${n === 0 ? " dead" : ""}`, "data-left": String(n) }, t("unseen").replace("{n}", String(n)));
}

function waitRow(w, seen) {
  const value = w.yakuman ? t("yakuman") : w.han > 0 ? `${w.han} ${t("han")} ${w.fu} ${t("fu")} · ${w.points}` : t("noValue");
  const row = el("div", { class: "w", "data-kind": String(w.kind) }, tileEl(waitTile(w.kind)), `${tileLabel(w.kind)} — ${value}`);
  if (seen) row.append(" · ", leftEl(Math.max(0, 4 - seen[w.kind])));
  return row;
}

let tip = null;

/** Show the waits of one discard candidate near `anchor`; `seen`: seenCounts of the seat. */
export function showTip(anchor, tenpai, seen = null) {
  hideTip();
  if (!tenpai || !tenpai.length) return;
  tip = el("div", { class: "tip", id: "tip" }, el("div", null, `${t("waits")}:`), ...tenpai.map((w) => waitRow(w, seen)));
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
  if (waits && waits.length) {
    const seen = seenCounts(tb, seat);
    box.append(el("span", "tenpai", `${t("tenpai")}: `, ...waits.map((w) => {
      const n = Math.max(0, 4 - seen[w.kind]);
      const tile = tileEl(waitTile(w.kind));
      return el("span", { class: `wait${n === 0 ? " dead" : ""}`, "data-kind": String(w.kind), "data-left": String(n),
        title: `${tileLabel(w.kind)}: ${t("unseen").replace("{n}", String(n))}` }, tile, el("sub", null, `×${n}`));
    })));
  }
  if (tb.players[seat].furiten === true) box.append(el("span", { class: "furiten", id: "furiten" }, t("furiten")));
  return box;
}
