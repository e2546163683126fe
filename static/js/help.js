// Help while playing: the waits a discard leaves with their guaranteed-minimum value (from the
// inquiry's tenpai info), the current waits, and the server's furiten warning.

import { tileEl } from "./tiles.js";
import { t, tileLabel } from "./i18n.js";

const waitTile = (kind) => kind * 4 + 3; // a plain (never red) copy, to draw the kind

function waitRow(w) {
  const row = document.createElement("div");
  row.className = "w";
  row.append(tileEl(waitTile(w.kind)));
  const value = w.yakuman ? t("yakuman") : w.han > 0 ? `${w.han} ${t("han")} ${w.fu} ${t("fu")} · ${w.points}` : t("noValue");
  row.append(`${tileLabel(w.kind)} — ${value}`);
  return row;
}

let tip = null;

/** Show the waits of one discard candidate near `anchor`. */
export function showTip(anchor, tenpai) {
  hideTip();
  if (!tenpai || !tenpai.length) return;
  tip = document.createElement("div");
  tip.className = "tip";
  tip.id = "tip";
  const head = document.createElement("div");
  head.textContent = `${t("waits")}:`;
  tip.append(head, ...tenpai.map(waitRow));
  document.body.append(tip);
  const r = anchor.getBoundingClientRect();
  const w = tip.offsetWidth, hgt = tip.offsetHeight;
  tip.style.left = `${Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2))}px`;
  tip.style.top = `${Math.max(4, r.top - hgt - 8)}px`;
}

export function hideTip() { if (tip) { tip.remove(); tip = null; } }

/** Status line: current waits (kept from the last discard's tenpai info) and the furiten
 * warning exactly as the server last said it (the seat's own Draw/Discard `furiten`). */
export function statusEl(tb, seat, waits) {
  const box = document.createElement("div");
  box.className = "status";
  if (seat === null) return box;
  if (waits && waits.length) {
    const ten = document.createElement("span");
    ten.className = "tenpai";
    ten.append(`${t("tenpai")}: `);
    waits.forEach((w) => ten.append(tileEl(waitTile(w.kind))));
    box.append(ten);
  }
  if (tb.players[seat].furiten === true) {
    const f = document.createElement("span");
    f.className = "furiten"; f.id = "furiten"; f.textContent = t("furiten");
    box.append(f);
  }
  return box;
}
