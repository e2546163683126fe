// Each player's tournament total after each round, from the tables the server lists (pure:
// node's tests run it). The standings are the server's; this only draws their history.

/** Tenths, as the server sums them (server/tournament/standings.py): no float drift. */
const tenths = (v) => Math.round(v * 10);

/**
 * {name: [total after round 0, 1, ..., upTo]} from every finished table's match points by
 * seat; a penalty counts from its `round` (the last round when it has none), so the last
 * point is the standings' total.
 */
export function totalsByRound(tables, penalties, upTo) {
  const steps = new Map();
  const add = (name, round, v) => {
    if (!steps.has(name)) steps.set(name, new Array(upTo + 1).fill(0));
    steps.get(name)[Math.min(Math.max(round, 0), upTo)] += v;
  };
  for (const t of tables) {
    if (t.status !== "finished" || !t.points) continue;
    t.seats.forEach((name, seat) => add(name, t.round, tenths(t.points[seat])));
  }
  for (const p of penalties || []) add(p.name, p.round ?? upTo, -tenths(p.points));
  const out = {};
  for (const [name, deltas] of steps) {
    let run = 0;
    out[name] = deltas.map((d) => { run += d; return run / 10; });
  }
  return out;
}

/** A total as the standings print it: one decimal, a sign on gains ("+12.3", "-4.0", "0.0"). */
export function signedPoints(v) {
  const s = (Math.round(v * 10) / 10).toFixed(1);
  return v > 0 ? `+${s}` : s === "-0.0" ? "0.0" : s;
}
