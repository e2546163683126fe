// Draws a table model: four seats around a centre panel, own seat at the bottom.
// Opponents' areas are the bottom layout rotated, so one layout serves every side.

import { tileEl, sortHand } from "./tiles.js";
import { t, windName, windShort, tileLabel } from "./i18n.js";
import { seatWind } from "./model.js";
import { nameEl } from "./account.js";
import { el } from "./dom.js";

/** Rotation of a seat's area: bottom 0, right -90, top 180, left 90 (degrees). */
const rel = (tb, seat, bottom) => (seat - bottom + tb.n) % tb.n;
const relSide = (tb, r) => (tb.n === 3 && r === 2 ? 3 : r); // sanma: the third seat sits left

function riverEl(tb, p, seat, fresh) {
  const box = el("div", "river");
  let row = null;
  p.river.forEach((d, i) => {
    if (i % 6 === 0 && i < 18) { row = el("div", "row"); box.append(row); }
    const cls = [d.tsumogiri ? "tsumogiri" : "", d.called ? "called" : "",
      tb.lastDiscard && tb.lastDiscard.seat === seat && tb.lastDiscard.index === i ? "last" : "",
      fresh && i === p.river.length - 1 ? "fresh" : ""].join(" ").trim();
    row.append(tileEl(d.tile, { red: tb.red, turned: d.riichi, cls: cls || undefined }));
  });
  return box;
}

/** A meld with the called tile turned toward its giver (left, across or right). */
export function meldEl(tb, m, seat) {
  const box = el("span", `meld ${m.type}`);
  if (m.type === "kita") { box.append(tileEl(m.tiles[0], { red: tb.red })); return box; }
  if (m.type === "ankan") {
    m.tiles.forEach((id, i) => box.append(tileEl(id, { red: tb.red, back: i === 0 || i === 3 })));
    return box;
  }
  const giver = (m.from - seat + tb.n) % tb.n; // 1 right, 2 across, n-1 left
  const others = m.tiles.filter((x) => x !== m.called).filter((x) => x !== m.added);
  const at = giver === tb.n - 1 ? 0 : giver === 1 ? others.length : 1;
  const seq = [...others];
  seq.splice(at, 0, m.called);
  seq.forEach((id) => {
    if (id !== m.called) { box.append(tileEl(id, { red: tb.red })); return; }
    if (m.added !== undefined && m.added !== null) {
      const st = el("span", "stack");
      st.append(tileEl(m.added, { red: tb.red, turned: true }), tileEl(id, { red: tb.red, turned: true }));
      box.append(st);
    } else box.append(tileEl(id, { red: tb.red, turned: true }));
  });
  return box;
}

function meldsEl(tb, p, seat, fresh = false) {
  const box = el("div", "melds");
  [...p.melds].reverse().forEach((m, i) => {
    const e = meldEl(tb, m, seat);
    if (fresh && i === 0) e.classList.add("fresh");
    box.append(e);
  });
  return box;
}

function oppHandEl(tb, p, seat, show, freshMeld) {
  const box = el("div", "hand opp");
  const tiles = el("div", "tiles");
  const reveal = show || p.shown;
  // open hands show what is known; tiles this view was never told (a spectator's public view)
  // stay face down rather than vanish
  const hidden = p.hand.filter((x) => x === null);
  const hand = reveal ? sortHand(p.hand.filter((x) => x !== null), tb.red).concat(hidden) : p.hand;
  hand.forEach((id) => tiles.append(tileEl(reveal ? id : null, { red: tb.red })));
  if (p.drawn !== null) tiles.append(tileEl(reveal && p.drawn >= 0 ? p.drawn : null, { red: tb.red, cls: "drawn" }));
  box.append(tiles, meldsEl(tb, p, seat, freshMeld));
  return box;
}

function centreEl(tb, bottom, clock) {
  const c = el("div", "centre");
  const info = el("div", "info");
  const wind = windName(Math.floor(tb.kyoku / tb.n) % 4);
  info.append(el("div", "round", `${wind} ${(tb.kyoku % tb.n) + 1}`));
  // the sticks drawn as sticks with a count, so "1 sticks" never has to be read
  const sub = el("div", "sub");
  const honba = el("span", "honba"), kyotaku = el("span", "kyotaku");
  honba.title = t("honba"); kyotaku.title = t("sticks");
  honba.append(el("i", "stick s100"), `×${tb.honba}`);
  kyotaku.append(el("i", "stick s1000"), `×${tb.kyotaku}`);
  sub.append(honba, kyotaku);
  const left = el("div", "left");
  left.append(el("span", "lbl", t("left")), " ", el("b", "", String(tb.tilesLeft ?? "")));
  info.append(sub, left);
  const dora = el("div", "dora");
  dora.title = t("dora");
  for (let i = 0; i < 5; i++) dora.append(tileEl(i < tb.dora.length ? tb.dora[i] : null, { red: tb.red }));
  info.append(dora);
  c.append(info);
  for (let s = 0; s < tb.n; s++) {
    const r = relSide(tb, rel(tb, s, bottom));
    const side = el("div", `side r${r}${tb.turn === s ? " turn" : ""}${tb.players[s].riichi ? " riichi" : ""}`);
    side.dataset.seat = String(s);
    const w = seatWind(tb, s);
    side.append(el("span", `wind${w === 0 ? " dealer" : ""}`, windShort(w)), el("span", "score", String(tb.scores[s])));
    if (tb.names[s]) side.append(nameEl(tb.names[s], { cls: "name", newTab: true }));
    c.append(side);
  }
  if (clock) c.append(clock);
  return c;
}

/**
 * Render the board (rivers, opponents' hands and melds, centre) into `root`.
 * view: {bottom: seat at the bottom, showAll: open every hand, clock: element or null}
 */
export function renderBoard(root, tb, view) {
  const board = el("div", "board");
  board.append(centreEl(tb, view.bottom, view.clock));
  for (let s = 0; s < tb.n; s++) {
    const r = relSide(tb, rel(tb, s, view.bottom));
    const area = el("div", `seat r${r}${tb.turn === s ? " turn" : ""}`);
    area.dataset.seat = String(s);
    const fresh = view.fresh && view.fresh.seat === s ? view.fresh.t : null;
    area.append(riverEl(tb, tb.players[s], s, fresh === "discard"));
    if (r !== 0) area.append(oppHandEl(tb, tb.players[s], s, view.showAll, fresh === "call"));
    board.append(area);
  }
  root.replaceChildren(board);
  return board;
}

/**
 * The bottom seat's hand strip: sorted hand, the drawn tile apart, melds on the right.
 * opts: {show: faces visible, playable: Map id -> info for legal discards, selected: id}
 */
export function renderHand(root, tb, seat, opts = {}) {
  const p = tb.players[seat];
  const strip = el("div", "own");
  const tiles = el("div", "tiles");
  const show = opts.show !== false;
  const add = (id, cls) => {
    const e = tileEl(show ? id : null, { red: tb.red, cls });
    if (opts.playable && id !== null && opts.playable.has(id)) {
      e.classList.add("can");
      e.tabIndex = 0;
      // a keyboard or screen-reader user meets a named button: "discard 5 Man" (named by its
      // content, a visually hidden text: the face's SVG is hidden from assistive technology)
      e.setAttribute("role", "button");
      e.append(el("span", "sr-only", `${t("discard")} ${tileLabel(id >> 2, tb.red.has(id))}`));
    } else if (opts.playable && opts.playable.size) e.classList.add("cannot");
    if (opts.selected === id) e.classList.add("sel");
    tiles.append(e);
  };
  const hand = p.hand.some((x) => x !== null) ? sortHand(p.hand.filter((x) => x !== null), tb.red) : p.hand;
  hand.forEach((id) => add(id));
  if (p.drawn !== null) add(p.drawn >= 0 ? p.drawn : null, "drawn");
  strip.append(tiles, meldsEl(tb, p, seat));
  root.replaceChildren(strip);
  return strip;
}



/** Light every face-up tile of `kind` under `root` (null: none): where the copies of a tile are. */
export function highlightKind(root, kind) {
  root.querySelectorAll(".tile.match").forEach((e) => e.classList.remove("match"));
  if (kind === null || kind === undefined) return;
  root.querySelectorAll(".tile[data-tile]").forEach((e) => {
    if (Number(e.dataset.tile) >> 2 === kind) e.classList.add("match");
  });
}

/** Pointing at a face-up tile lights its kind across `root`; leaving it goes back to `held()`
 * (the selected tile's kind, or null). */
export function hoverMatches(root, held = () => null) {
  root.addEventListener("mouseover", (e) => {
    const tile = e.target.closest && e.target.closest(".tile[data-tile]");
    highlightKind(root, tile ? Number(tile.dataset.tile) >> 2 : held());
  });
  root.addEventListener("mouseleave", () => highlightKind(root, held()));
}
