// How many copies of each tile kind a seat has not seen: the table's four of a kind less the
// ones in its own hand, on every river, in every meld (called tiles, added and closed kans,
// the Norths sanma sets aside) and among the dora indicators. Only what that seat's own view
// shows: other concealed hands count as unseen, even when a god view draws them.

const KINDS = 34;

/** Per kind (0..33), the copies seat `seat` has seen on table `tb`. */
export function seenCounts(tb, seat) {
  const seen = new Array(KINDS).fill(0);
  const see = (id) => { if (id !== null && id !== undefined && id >= 0) seen[id >> 2] += 1; };
  const me = tb.players[seat];
  if (me) { me.hand.forEach(see); see(me.drawn); }
  for (const p of tb.players) {
    // a called discard is counted once, in the caller's meld
    for (const d of p.river) if (!d.called) see(d.tile);
    for (const m of p.melds) {
      m.tiles.forEach(see);
      if (m.added !== null && m.added !== undefined && !m.tiles.includes(m.added)) see(m.added);
    }
  }
  (tb.dora || []).forEach(see);
  return seen;
}

/** Copies of `kind` still unseen from `seat` (never below 0). */
export function unseenOf(tb, seat, kind) {
  return Math.max(0, 4 - seenCounts(tb, seat)[kind]);
}
