// The table as the client knows it: plain data changed only by the events the server sends
// (or a replay produces). The client never decides rules; it only records what it is told.

import { kindOf, sortHand } from "./tiles.js";

/**
 * An empty table for n seats seen from `self` (null = spectator / god view). `rules` are the
 * server's rule facts ({players, red, wall}: RoomInfo.rules, a replay's rules); the client
 * holds none of them as a constant, so until they arrive no tile is red and the wall unknown.
 */
export function newTable(n = 4, self = null, rules = null) {
  return {
    n, self, rules, red: new Set(rules ? rules.red : []), wall: rules ? rules.wall : null,
    names: Array(n).fill(""), scores: Array(n).fill(25000),
    kyoku: 0, honba: 0, kyotaku: 0, tilesLeft: rules ? rules.wall : null, dora: [], turn: null, dealer: 0,
    players: Array.from({ length: n }, () => newPlayer()),
    result: null, final: null, lastDiscard: null, started: false,
  };
}

function newPlayer() {
  // furiten: the server's word (the seat's own Draw/Discard); null while it has said nothing
  return { hand: [], drawn: null, river: [], melds: [], riichi: false, riichiPending: false, open: false, furiten: null };
}

/** Seat wind of a seat (0 = East) this round. */
export const seatWind = (tb, seat) => (seat - (tb.kyoku % tb.n) + tb.n) % tb.n;

function takeOut(p, id) {
  // a known tile leaves by id; an unseen hand gives up a placeholder (null), then its hidden draw
  if (p.drawn !== null && p.drawn === id) { p.drawn = null; return; }
  let i = p.hand.indexOf(id);
  if (i < 0) i = p.hand.indexOf(null);
  if (i >= 0) p.hand.splice(i, 1);
  else if (p.drawn !== null) p.drawn = null;
}

function mergeDrawn(tb, p) {
  if (p.drawn !== null) p.hand.push(p.drawn === -1 ? null : p.drawn);
  p.drawn = null;
  p.hand = sortHand(p.hand.filter((x) => x !== null), tb.red).concat(p.hand.filter((x) => x === null));
}

const handlers = {
  start(tb, e) {
    const names = tb.names;
    Object.assign(tb, newTable(e.n || tb.n, tb.self, tb.rules));
    tb.names = e.names || names;
    if (e.scores) tb.scores = [...e.scores];
    if (e.red) tb.red = new Set(e.red);
    tb.started = true;
  },
  round(tb, e) {
    tb.kyoku = e.kyoku; tb.honba = e.honba; tb.kyotaku = e.kyotaku;
    if (e.scores) tb.scores = [...e.scores];
    tb.dora = [...(e.dora || [])];
    tb.tilesLeft = e.tilesLeft ?? tb.wall;
    tb.dealer = e.kyoku % tb.n;
    tb.players = Array.from({ length: tb.n }, (_, s) => {
      const p = newPlayer();
      const h = (e.hands && e.hands[s]) || Array(13).fill(null);
      p.hand = sortHand(h.filter((x) => x !== null), tb.red).concat(h.filter((x) => x === null));
      return p;
    });
    tb.result = null; tb.turn = tb.dealer; tb.lastDiscard = null; tb.started = true;
  },
  haipai(tb, e) {
    const p = tb.players[e.seat];
    p.hand = sortHand(e.tiles, tb.red);
  },
  draw(tb, e) {
    const p = tb.players[e.seat];
    mergeDrawn(tb, p);
    p.drawn = e.tile ?? null;
    if (p.drawn === null) p.drawn = -1; // a hidden draw still shows apart
    if (typeof e.furiten === "boolean") p.furiten = e.furiten;
    tb.turn = e.seat;
    if (e.tilesLeft !== undefined) tb.tilesLeft = e.tilesLeft; else if (tb.tilesLeft !== null) tb.tilesLeft -= 1;
  },
  discard(tb, e) {
    const p = tb.players[e.seat];
    const tsumogiri = e.tsumogiri ?? (p.drawn !== null && p.drawn === e.tile);
    if (tsumogiri && p.drawn !== null) p.drawn = null;
    else takeOut(p, e.tile);
    mergeDrawn(tb, p);
    const riichi = !!e.riichi || p.riichiPending;
    p.riichiPending = false;
    p.river.push({ tile: e.tile, tsumogiri, riichi, called: false });
    if (typeof e.furiten === "boolean") p.furiten = e.furiten;
    tb.turn = e.seat; tb.lastDiscard = { seat: e.seat, index: p.river.length - 1 };
  },
  riichi(tb, e) {
    // declared: the next discard lies sideways; accepted: stick on the table
    const p = tb.players[e.seat];
    if (!e.accepted) { p.riichiPending = true; return; }
    p.riichi = true;
    if (e.scores && e.scores.length) { tb.scores = [...e.scores]; tb.kyotaku = e.kyotaku; }
    else { tb.kyotaku += 1; tb.scores[e.seat] -= 1000; }
  },
  call(tb, e) {
    const p = tb.players[e.seat];
    const m = e.meld;
    if (m.type === "kakan") {
      const pon = p.melds.find((x) => x.type === "pon" && kindOf(x.tiles[0]) === kindOf(m.added));
      if (pon) { pon.type = "kakan"; pon.added = m.added; }
      takeOut(p, m.added);
    } else {
      const fromOther = m.from !== undefined && m.from !== null && m.from !== e.seat;
      for (const id of m.tiles) if (!(fromOther && id === m.called)) takeOut(p, id);
      if (fromOther) {
        const g = tb.players[m.from].river;
        if (g.length) g[g.length - 1].called = true;
      }
      p.melds.push({ ...m });
    }
    if (m.type !== "kita" && m.type !== "ankan" && m.type !== "kakan") mergeDrawn(tb, p);
    tb.turn = e.seat;
    p.open = p.open || !["ankan", "kita"].includes(m.type);
  },
  dora(tb, e) { tb.dora.push(e.tile); },
  reveal(tb, e) { const p = tb.players[e.seat]; p.hand = sortHand(e.hand, tb.red); p.drawn = null; p.shown = true; },
  result(tb, e) {
    tb.result = e;
    if (e.scores && e.scores.length) tb.scores = [...e.scores];
    else if (e.deltas) tb.scores = tb.scores.map((s, i) => s + e.deltas[i]);
    if (e.kyotaku !== undefined) tb.kyotaku = e.kyotaku;
    tb.turn = null;
  },
  end(tb, e) { tb.final = e; if (e.scores && e.scores.length) tb.scores = [...e.scores]; },
};

/** Apply one internal event to the table; unknown kinds are ignored. */
export function apply(tb, e) {
  const h = handlers[e.t];
  if (h) h(tb, e);
  return tb;
}
