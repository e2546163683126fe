// Decisions: which tiles may be discarded and which buttons appear come only from the inquiry.
// Riichi first asks for one of its own (legal riichi) discards; a call with several ways to
// make it (red five or not, which chii) asks which tiles to use.

import { tileEl } from "./tiles.js";
import { t, tileLabel } from "./i18n.js";
import { el } from "./dom.js";

const CALLS = new Set(["chii", "pon", "daiminkan"]);

/** Map of tile id -> {action, option, tenpai} for the tiles a click may discard now. */
export function playable(inq, riichiMode) {
  const map = new Map();
  if (!inq) return map;
  inq.actions.forEach((a, ai) => {
    if (a.type !== (riichiMode ? "riichi" : "discard")) return;
    a.options.forEach((o, oi) => map.set(o.tiles[0], { action: ai, option: oi, tenpai: o.tenpai || [] }));
  });
  return map;
}

/**
 * Extend `can` to every copy in `hand` with the same face (kind and redness) as a legal
 * discard: the copies look alike, and the server may list one option per face.
 */
export function sameFace(can, hand, red) {
  const faces = new Map();
  for (const [id, info] of can) faces.set(`${id >> 2}:${red.has(id)}`, info);
  for (const id of hand) {
    if (id === null || id < 0 || can.has(id)) continue;
    const info = faces.get(`${id >> 2}:${red.has(id)}`);
    if (info) can.set(id, info);
  }
  return can;
}

const button = (label, type, onClick, key) =>
  // the keyboard shortcut, drawn as a key cap (not "Pon 1", which reads as a count)
  el("button", { "data-type": type, onclick: onClick }, label, ...(key ? [" ", el("kbd", null, String(key))] : []));

/**
 * The action buttons. ui = {inq, riichiMode, choosing: action index or null, answer(a, o),
 * setRiichi(bool), choose(index|null), red: the table's red fives, hide: action types left out}.
 */
export function actionsEl(ui) {
  const box = el("div", { class: "actions", id: "actions" });
  const inq = ui.inq;
  if (!inq) return box;
  if (ui.choosing !== null) {
    const a = inq.actions[ui.choosing];
    a.options.forEach((o, oi) => {
      box.append(el("span", { class: "choice", tabindex: "0", role: "button", "data-option": String(oi),
        "aria-label": `${t(a.type)} ${o.tiles.map((id) => tileLabel(id >> 2, ui.red.has(id))).join(" ")}`,
        onclick: () => ui.answer(ui.choosing, oi), onkeydown: (e) => { if (e.key === "Enter") ui.answer(ui.choosing, oi); } },
      ...o.tiles.map((id) => tileEl(id, { red: ui.red }))));
    });
    box.append(button(t("cancel"), "cancel", () => ui.choose(null)));
    return box;
  }
  let key = 1;
  const hide = ui.hide || new Set(); // the calls the player's toggles leave out
  inq.actions.forEach((a, ai) => {
    if (a.type === "discard" || a.type === "next_round" || hide.has(a.type)) return;
    if (a.type === "riichi") {
      const b = button(ui.riichiMode ? t("cancel") : t("riichi"), "riichi", () => ui.setRiichi(!ui.riichiMode), key++);
      if (ui.riichiMode) b.dataset.active = "1";
      else b.dataset.action = String(ai);
      box.append(b);
      return;
    }
    const go = () => (a.options.length > 1 ? ui.choose(ai) : ui.answer(ai, 0));
    const b = button(t(a.type), a.type, go, a.type === "skip" ? "" : key++);
    b.dataset.action = String(ai); // the inquiry's action index (advice.js marks by it)
    // sanma: the North that kita sets aside is shown on its button (抜き / Kita)
    if (a.type === "kita") b.prepend(tileEl(a.options[0].tiles[0], { cls: "mini", red: ui.red }), " ");
    box.append(b);
  });
  return box;
}

/**
 * The action types the player's toggles leave out: every call (noCalls), chii (noChii), the
 * kans (noKan: an open kan on a discard, and a closed or added kan on one's own turn).
 */
export function leftOut(opts) {
  const out = new Set();
  if (opts.noCalls) CALLS.forEach((x) => out.add(x));
  if (opts.noChii) out.add("chii");
  if (opts.noKan) ["daiminkan", "ankan", "kakan"].forEach((x) => out.add(x));
  return out;
}

/** What the page should answer by itself under the player's toggles, or null. */
export function autoAnswer(inq, opts, tb, seat, drawn) {
  if (!inq) return null;
  const idx = (type) => inq.actions.findIndex((a) => a.type === type);
  if (opts.autoWin) {
    for (const type of ["tsumo", "ron"]) if (idx(type) >= 0) return [idx(type), 0];
  }
  const types = inq.actions.map((a) => a.type);
  // a call offer whose every call the player left out is passed (never a ron)
  const out = leftOut(opts);
  if (idx("skip") >= 0 && !types.includes("ron") && types.every((x) => x === "skip" || (CALLS.has(x) && out.has(x)))) {
    return [idx("skip"), 0];
  }
  const inRiichi = seat !== null && tb.players[seat].river.some((d) => d.riichi);
  const d = idx("discard");
  if (opts.autoTsumogiri && inRiichi && d >= 0 && drawn !== null && !types.some((x) => x === "tsumo" || x === "ankan")) {
    const oi = inq.actions[d].options.findIndex((o) => o.tiles[0] === drawn);
    if (oi >= 0) return [d, oi];
  }
  return null;
}

/**
 * The answer the server's time-out would give (docs/protocol.md): pass, or on one's own turn
 * discard the tile just drawn (the discard's last option); a result's acknowledgement. Never a
 * win or a call. Null when the inquiry offers none of these.
 */
export function defaultAnswer(inq) {
  if (!inq) return null;
  const idx = (type) => inq.actions.findIndex((a) => a.type === type);
  for (const type of ["skip", "next_round"]) if (idx(type) >= 0) return [idx(type), 0];
  const d = idx("discard");
  return d >= 0 ? [d, inq.actions[d].options.length - 1] : null;
}
