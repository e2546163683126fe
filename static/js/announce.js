// On-screen calls: "Pon!", "Riichi!", "Ron!", "Tsumo!" by the seat that made them, as players
// at a real table say them. Purely decorative: the element ignores the pointer and goes away
// by itself, so it never stands between a player and the next decision.

import { t } from "./i18n.js";
import { el } from "./dom.js";

const SHOW_MS = 1300;

/** The words a table event calls out, or null. */
export function callWord(e) {
  if (e.t === "call") return e.meld.type === "kita" ? t("kita") : t(e.meld.type);
  if (e.t === "riichi" && !e.accepted) return t("riichi");
  if (e.t === "result" && e.kind === "win") return null; // per winner, below
  return null;
}

function place(box, tb, bottom, seat, word, cls) {
  const r = (seat - bottom + tb.n) % tb.n;
  const side = tb.n === 3 && r === 2 ? 3 : r;
  const call = el("div", { class: `announce r${side} ${cls}`, "data-seat": String(seat) }, `${word}!`);
  box.append(call);
  setTimeout(() => call.remove(), SHOW_MS);
}

/** Show what event `e` calls out over the board box (seats placed as on the board). */
export function announce(box, tb, bottom, e) {
  if (e.t === "result" && e.kind === "win") {
    for (const w of e.wins) place(box, tb, bottom, w.who, w.tsumo ? t("tsumo") : t("ron"), "win");
    return;
  }
  const word = callWord(e);
  if (word) place(box, tb, bottom, e.seat, word, e.t);
}
