// `#/player/NAME`: a player's profile (GET /api/players/{name}): per lobby the dan with its
// points bar towards promotion, R, stable dan, games, placements and the stats; the rating
// graph over the history; the average agreement with the reviewer and its graph over the
// reviewed games (when there are reviews); the games (GET /api/players/{name}/games) with replay links.

import { t, danName } from "./i18n.js";
import { el } from "./dom.js";
import { call, errorText, nameEl } from "./account.js";
import { promotionBar } from "./dan.js";
import { lobbyList, lobbyLabel } from "./ranked.js";

const DASH = "—";
const pct = (x) => (x === null || x === undefined ? DASH : `${(x * 100).toFixed(1)}%`);
const num = (x, digits = 0) => (x === null || x === undefined ? DASH : Number(x).toFixed(digits));
const signed = (x) => (x > 0 ? `+${num(x, 1)}` : num(x, 1));

/** The dan, its points and the bar towards promotion (a native progress bar, labelled). */
function danLine(s) {
  const bar = promotionBar(s.dan, s.points);
  const line = el("div", { class: "dan-line" }, el("span", { class: "dan-name" }, danName(s.dan)),
    el("span", { class: "dan-points" }, bar ? `${s.points} / ${bar.max} ${t("pt")}` : `${s.points} ${t("pt")}`));
  if (!bar) { line.append(el("span", "muted", t("topRank"))); return line; }
  const label = t("toPromotion").replace("{n}", String(bar.left));
  line.append(el("progress", { class: "dan-bar", max: String(bar.max), value: String(bar.value), "aria-label": `${danName(s.dan)}: ${label}` }),
    el("span", { class: "to-promotion" }, label));
  return line;
}

function figure(label, value, cls) {
  return el("div", { class: `figure ${cls}` }, el("dt", "", label), el("dd", "", value));
}

function placementsTable(s) {
  const total = s.placements.reduce((a, b) => a + b, 0);
  const head = el("tr", "", el("th", { scope: "col" }, t("place")), ...s.placements.map((_, i) => el("th", { scope: "col", class: "num" }, t("ordinals")[i])));
  const counts = el("tr", "", el("th", { scope: "row" }, t("games")), ...s.placements.map((n) => el("td", "num", String(n))));
  const rates = el("tr", "", el("th", { scope: "row" }, "%"), ...s.placements.map((n) => el("td", "num", total ? pct(n / total) : DASH)));
  return el("table", { class: "placements" }, el("caption", "", t("placements")), el("thead", "", head), el("tbody", "", counts, rates));
}

function statsTable(st) {
  const rows = [
    ["statAvgPlace", num(st.average_placement, 2)], ["statFirst", pct(st.first_rate)], ["statLast", pct(st.last_rate)],
    ["statWin", pct(st.win_rate)], ["statDealIn", pct(st.deal_in_rate)], ["statRiichi", pct(st.riichi_rate)],
    ["statCall", pct(st.call_rate)], ["statTsumo", pct(st.tsumo_rate)], ["statAvgWin", num(st.average_win)],
    ["statAvgDealIn", num(st.average_deal_in)], ["statDrawTenpai", pct(st.draw_tenpai_rate)], ["statHands", String(st.rounds)],
  ];
  return el("table", { class: "stats" }, el("caption", "", t("stats")),
    el("tbody", "", ...rows.map(([k, v]) => el("tr", { "data-stat": k }, el("th", { scope: "row" }, t(k)), el("td", "num", v)))));
}

function standingSection(s, lobbies) {
  const id = `standing-${s.lobby}`;
  return el("section", { class: "standing", "data-lobby": s.lobby, "aria-labelledby": `${id}-title` },
    el("h3", { id: `${id}-title` }, lobbyLabel(lobbies, s.lobby)),
    danLine(s),
    el("dl", { class: "figures" }, figure(t("rating"), num(s.rating, 2), "rating"),
      figure(t("stableDan"), s.stable_dan === null ? DASH : num(s.stable_dan, 2), "stable"), figure(t("games"), String(s.games), "games")),
    el("div", { class: "tables" }, placementsTable(s), statsTable(s.stats)));
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** Each lobby's R after each of its games, oldest first, from R before the first one:
 * {lobby: [r0, r1, ...]}, and the games in play order as x positions. */
export function ratingSeries(history) {
  const series = new Map();
  [...history].reverse().forEach((h, x) => {
    if (!series.has(h.lobby)) series.set(h.lobby, [{ x: x - 1, r: h.rating - h.rating_delta }]);
    series.get(h.lobby).push({ x, r: h.rating });
  });
  return series;
}

/** A line graph of series of {x, v} points (x: play order), v up from lo to hi with a grid
 * line at each of `ticks` (labelled by `tick`); `label` says it all for a screen reader;
 * `xLabel(x)`, when given, names each x under the plot. Series take the colours s0..s7. */
export function lineGraph(seriesList, lo, hi, ticks, tick, label, xLabel = null) {
  const all = seriesList.flat();
  const W = 560, H = 220, L = 56, R = 16, T = 12, B = 24;
  const xs = all.map((p) => p.x), x0 = Math.min(...xs), x1 = Math.max(...xs);
  const x = (v) => L + ((v - x0) * (W - L - R)) / Math.max(1, x1 - x0);
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label });
  for (const v of ticks) {
    g.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: L - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, tick(v)));
  }
  if (xLabel) {
    for (let v = x0; v <= x1; v++) g.append(svg("text", { x: x(v), y: H - 4, class: "axis", "text-anchor": "middle" }, xLabel(v)));
  }
  seriesList.forEach((pts, i) => {
    g.append(svg("polyline", { points: pts.map((p) => `${x(p.x)},${y(p.v)}`).join(" "), class: `line s${i % 8}` }));
    pts.forEach((p) => g.append(svg("circle", { cx: x(p.x), cy: y(p.v), r: 3, class: `dot s${i % 8}` })));
  });
  return g;
}

/** The rating graph: one line per lobby over the games played (play order), R up. */
function ratingGraph(history, lobbies) {
  const series = ratingSeries(history);
  const all = [...series.values()].flat();
  const lo = Math.floor(Math.min(...all.map((p) => p.r)) / 10) * 10 - 10;
  const hi = Math.ceil(Math.max(...all.map((p) => p.r)) / 10) * 10 + 10;
  const desc = [...series].map(([lobby, pts]) => `${lobbyLabel(lobbies, lobby)}: ${pts.map((p) => num(p.r, 1)).join(" → ")}`).join("; ");
  const lines = [...series.values()].map((pts) => pts.map((p) => ({ x: p.x, v: p.r })));
  const g = lineGraph(lines, lo, hi, [lo, Math.round((lo + hi) / 2), hi], String, `${t("ratingGraph")}: ${desc}`);
  const legend = el("div", "legend", ...[...series.keys()].map((lobby, i) => el("span", `key s${i % 8}`, el("i", ""), lobbyLabel(lobbies, lobby))));
  return el("figure", { class: "scoregraph rating-graph", id: "rating-graph" }, g, legend);
}

/** The average agreement with the reviewer and its graph over the reviewed games (oldest
 * first, one point per review: a game reviewed by two engines has two). */
function agreementSection(p) {
  const points = p.reviews.map((r, x) => ({ x, v: r.match_rate * 100 }));
  const desc = p.reviews.map((r) => pct(r.match_rate)).join(" → ");
  const g = lineGraph([points], 0, 100, [0, 50, 100], (v) => `${v}%`, `${t("agreementGraph")}: ${desc}`);
  return el("section", { id: "agreement", "aria-labelledby": "agreement-title" },
    el("h2", { id: "agreement-title" }, t("agreementGraph")),
    el("dl", { class: "figures" }, figure(t("avgAgreement"), pct(p.match_rate), "agreement"),
      figure(t("reviewedGames"), String(p.reviews.length), "reviewed")),
    el("figure", { class: "scoregraph agreement-graph", id: "agreement-graph" }, g));
}

const PAGE = 20;

/** The player's games, newest first, each with its seats (names linked) and replay link. */
function gamesSection(name, lobbies) {
  const body = el("tbody", { id: "profile-games" });
  const more = el("button", { type: "button", id: "games-more", hidden: "" }, t("more"));
  let before = null;
  const row = (g) => el("tr", { "data-game": g.game },
    el("td", "", new Date(g.ended).toLocaleString([], { dateStyle: "short", timeStyle: "short" })), el("td", "lobby", lobbyLabel(lobbies, g.lobby)),
    el("td", "num", String(g.place)), el("td", "num", String(g.score)),
    el("td", { class: `num ${g.rating_delta > 0 ? "plus" : g.rating_delta < 0 ? "minus" : ""}` }, signed(g.rating_delta)),
    el("td", "seats", ...g.seats.flatMap((nm, i) => [i ? " · " : "", nm === "anonymous" ? nm : nameEl(nm, { always: true })])),
    el("td", "", el("a", { href: `#/replay/${g.game}`, class: "replay" }, t("replay"))));
  const page = () => call("GET", `/api/players/${encodeURIComponent(name)}/games?limit=${PAGE}${before === null ? "" : `&before=${before}`}`).then((d) => {
    body.append(...d.games.map(row));
    before = d.next;
    if (d.next === null) more.setAttribute("hidden", ""); else more.removeAttribute("hidden");
  }).catch(() => {});
  more.addEventListener("click", page);
  page();
  const head = el("tr", "", ...[t("ended"), t("lobbyName"), t("place"), t("score"), t("delta"), t("player"), t("replay")]
    .map((h, i) => el("th", { scope: "col", class: i === 1 ? "lobby" : i >= 2 && i <= 4 ? "num" : null }, h)));
  return el("section", { "aria-labelledby": "games-title" }, el("h2", { id: "games-title" }, t("recentGames")),
    el("div", "scroll", el("table", { class: "games" }, el("thead", "", head), body)), more);
}

export function profilePage(root, name) {
  const page = el("div", { class: "page profile" }, el("section", {}, el("h2", { id: "profile-name" }, name), el("p", "muted", t("profile"))));
  root.replaceChildren(page);
  Promise.all([call("GET", `/api/players/${encodeURIComponent(name)}`), lobbyList()]).then(([p, lobbies]) => {
    page.replaceChildren(el("section", { "aria-labelledby": "profile-name" }, el("h2", { id: "profile-name" }, p.name),
      ...p.lobbies.map((s) => standingSection(s, lobbies))));
    if (p.history.length) {
      page.append(el("section", { "aria-labelledby": "rating-title" }, el("h2", { id: "rating-title" }, t("ratingGraph")), ratingGraph(p.history, lobbies)));
    }
    if (p.reviews.length) page.append(agreementSection(p));
    page.append(gamesSection(p.name, lobbies));
    page.dataset.ready = "1";
  }).catch((e) => {
    page.append(el("p", { class: "error", id: "profile-error" }, e.status === 404 ? t("noPlayer") : errorText(e)));
    page.dataset.ready = "1";
  });
  return () => {};
}
