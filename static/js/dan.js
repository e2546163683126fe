// Tenhou's rank thresholds as docs/ranking.md gives them (server/ladder/tenhou_dan.py decides;
// this only draws the points bar towards promotion): kyu ranks start at 0 and are promoted at
// 20..100 pt, dan k (初段 = 10 here, k = 1) starts at 200·k and is promoted at 400·k, 天鳳位 is
// the top.

export const SHODAN = 10;
export const TENHOUI = 20;

/** Points a rank is promoted at (null: 天鳳位, the top). */
export function promotionAt(dan) {
  if (dan >= TENHOUI) return null;
  if (dan >= SHODAN) return 400 * (dan - SHODAN + 1);
  return { 4: 40, 5: 60, 6: 80 }[dan] ?? (dan < 4 ? 20 : 100);
}

/** Points a rank starts at after a promotion (or a demotion into it). */
export const startAt = (dan) => (dan >= SHODAN && dan < TENHOUI ? 200 * (dan - SHODAN + 1) : 0);

/** The bar towards promotion: {value, max, start, left} (points held, the threshold, where the
 * rank starts, points still to gain), or null at the top. Demotion lies below 0. */
export function promotionBar(dan, points) {
  const max = promotionAt(dan);
  if (max === null) return null;
  const value = Math.max(0, Math.min(points, max));
  return { value, max, start: startAt(dan), left: Math.max(0, max - points) };
}
