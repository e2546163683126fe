// The match in numbers for the final standings: every seat's score after each hand (a line
// graph) and why the match ended, read only from the events the server sent.

import { t, windName } from "./i18n.js";
import { el } from "./dom.js";

/**
 * The scores over the match from its engine events (a stored game's replay): the start, then
 * after each hand (label "E1-0": round, hand, honba), then the end (the leftover sticks paid).
 * {points: [{label, scores}], kyoku: the last hand's kyoku, n}
 */
export function scoreHistory(events) {
  const points = [];
  let label = "", n = 4, kyoku = 0, reason = "";
  for (const e of events) {
    if (e.type === "BeginGame") { n = e.players; points.push({ label: "", scores: [...e.scores] }); }
    if (e.type === "RoundStarted") { kyoku = e.kyoku; label = `${"ESWN"[Math.floor(e.kyoku / n) % 4]}${(e.kyoku % n) + 1}-${e.honba}`; }
    if ((e.type === "Agari" || e.type === "Ryuukyoku") && e.scores && e.scores.length) points.push({ label, scores: [...e.scores] });
    if (e.type === "GameEnded" && e.reason) reason = e.reason;
    if (e.type === "GameEnded" && e.scores && e.scores.length) {
      const last = points[points.length - 1];
      if (!last || last.scores.some((x, i) => x !== e.scores[i])) points.push({ label: t("end"), scores: [...e.scores] });
    }
  }
  return { points, kyoku, n, reason };
}

/** The engine's own reason (GameEnded.reason) as an i18n key. */
const REASONS = { bust: "reason_bust", last: "reason_last", extension: "reason_extra" };

/**
 * Why the match ended, as a key of i18n ("reason_…"): a score below zero before the last
 * scheduled hand is a bust; the last hand's own end is "all hands played"; past it, the extra
 * round. `winds`: 1 tonpuusen, 2 hanchan (the preset's), or null when not known. A game of
 * ours says why itself (GameEnded.reason); an uploaded log does not, so it is inferred.
 */
export function endReason(history, winds) {
  const { points, kyoku, n, reason } = history;
  if (REASONS[reason]) return REASONS[reason];
  const final = points.length ? points[points.length - 1].scores : [];
  const last = winds ? winds * n - 1 : null;
  if (final.some((x) => x < 0) && (last === null || kyoku < last)) return "reason_bust";
  if (last !== null && kyoku > last) return "reason_extra";
  if (last !== null && kyoku < last) return "reason_early";
  return "reason_last";
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** The line graph: one line per seat (classes s0..s3), hands along, scores up; names below. */
export function scoreGraph(history, names) {
  const { points, n } = history;
  const W = 560, H = 230, L = 64, R = 24, T = 12, B = 30;
  const all = points.flatMap((p) => p.scores);
  // the scale in steps of 5000 around what happened (zero shows only when someone went under)
  const lo = Math.floor(Math.min(...all) / 5000) * 5000, hi = Math.ceil(Math.max(...all) / 5000) * 5000;
  const span = Math.max(1, hi - lo);
  const x = (i) => L + (points.length > 1 ? (i * (W - L - R)) / (points.length - 1) : 0);
  const y = (v) => T + ((hi - v) * (H - T - B)) / span;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
    "aria-label": `${t("scoreGraph")}: ${names.map((nm, s) => `${nm} ${points.map((p) => p.scores[s]).join(" → ")}`).join("; ")}` });
  for (const v of new Set([lo, Math.round((lo + hi) / 2 / 100) * 100, hi])) {
    const r = v;
    g.append(svg("line", { x1: L, x2: W - R, y1: y(r), y2: y(r), class: "grid" }),
      svg("text", { x: L - 4, y: y(r) + 4, class: "axis", "text-anchor": "end" }, String(r)));
  }
  if (lo < 0) g.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero" }));
  points.forEach((p, i) => { if (p.label) g.append(svg("text", { x: x(i), y: H - 8, class: "axis", "text-anchor": "middle" }, p.label)); });
  for (let s = 0; s < n; s++) {
    g.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.scores[s])}`).join(" "), class: `line s${s}` }));
    points.forEach((p, i) => g.append(svg("circle", { cx: x(i), cy: y(p.scores[s]), r: 2.5, class: `dot s${s}` })));
  }
  const legend = el("div", "legend", ...names.map((nm, s) => el("span", `key s${s}`, el("i", ""), nm || windName(s))));
  return el("figure", { class: "scoregraph", id: "score-graph" }, g, legend);
}
