// The review in the replay viewer: a "Review" control per seat asks the server for that seat's
// review (POST /api/games/{id}/review) and shows its progress; once done, the seat's summary
// (match rate, rating, blunders), an agreement strip with one mark per decision over the whole
// game (click one to go there; buttons step from mistake to mistake), and at a reviewed
// decision the reviewer's top three choices with their values beside the one played.
// Decisions are placed by their event_index: how many of the replay's events come before them.

import "./review_words.js";
import { t, tileLabel } from "./i18n.js";
import { el } from "./dom.js";
import { tileEl } from "./tiles.js";
import { csrfHeader } from "./account.js";

const ENGINE = "strong";
const POLL_MS = 1000;
const MISSES = new Set(["mistake", "blunder"]);
const HONORS = "ESWNPFC";
// mjai action types -> the interface word for them (hora is tsumo or ron by its target)
const WORD = {
  dahai: "discard", reach: "riichi", chi: "chii", pon: "pon", daiminkan: "daiminkan",
  ankan: "ankan", kakan: "kakan", none: "skip", ryukyoku: "kyuushu", nukidora: "kita",
  tenpai: "tenpai", notenpai: "notenpai",
};

/** The viewer's (round, step) showing the table as it was at `count` events: the last step
 * whose events end at or before it (hands[r].upto: events consumed through each step). */
export function locate(hands, count) {
  let at = { round: 0, step: 1 };
  for (let r = 0; r < hands.length; r++) {
    const upto = hands[r].upto;
    for (let s = 0; s < upto.length; s++) {
      if (upto[s] > count) return at;
      at = { round: r, step: s + 1 };
    }
  }
  return at;
}

/** Every reviewed decision with its place in the viewer, in game order. */
export function placeEntries(hands, review) {
  const marks = [];
  review.kyokus.forEach((k, kyoku) => k.entries.forEach((entry, index) => {
    marks.push({ ...locate(hands, entry.event_index), entry, kyoku, index });
  }));
  return marks;
}

const before = (a, b) => a.round < b.round || (a.round === b.round && a.step < b.step);
const same = (a, b) => a.round === b.round && a.step === b.step;

/** An mjai tile name ("5mr", "E") as a tile face. */
function mjaiTile(name) {
  const honor = name.length === 1 ? HONORS.indexOf(name) : -1;
  const red = name.endsWith("r");
  const k = honor >= 0 ? 27 + honor : "mps".indexOf(name[1]) * 9 + Number(name[0]) - 1;
  const id = k * 4 + (red ? 0 : 1); // a red five is its kind's lowest copy
  return tileEl(id, { red: red ? new Set([id]) : undefined, title: tileLabel(k, red), cls: "rv-tile" });
}

/** An mjai action (what a reviewer's choice is) as words and tiles. */
export function actionNode(a) {
  const word = a.type === "hora" ? (a.actor === a.target ? "tsumo" : "ron") : WORD[a.type];
  let tiles = [];
  if (["chi", "pon", "daiminkan"].includes(a.type)) tiles = [a.pai, ...(a.consumed || [])];
  else if (a.type === "ankan") tiles = a.consumed || [];
  else if (a.pai && a.type !== "hora") tiles = [a.pai];
  return el("span", "rv-action", el("span", "rv-word", word ? t(word) : a.type),
    ...tiles.filter(Boolean).map(mjaiTile));
}

const value = (q) => (Math.abs(q) >= 1000 ? Math.round(q).toLocaleString() : q.toFixed(1));
const pct = (x) => `${(100 * x).toFixed(1)} %`;

export function reviewPanel({ game, jump, setView }) {
  const st = { hands: [], reviews: {}, marks: {}, active: null, wanted: null, at: { round: 0, step: 1 }, timers: new Set(), stopped: false };
  const seatsBox = el("div", "rv-seats");
  const strip = el("div", { class: "rv-strip", id: "review-strip", title: t("agreement") });
  const nav = el("div", "rv-nav hidden",
    el("button", { id: "review-prev", onclick: () => miss(-1) }, t("prevMistake")),
    el("button", { id: "review-worst", onclick: worst }, t("worstMistake")),
    el("button", { id: "review-next", onclick: () => miss(1) }, t("nextMistake")));
  const here = el("div", { class: "rv-here", id: "review-here" });
  const node = el("section", { class: "review", id: "review" }, seatsBox, strip, nav, here);

  function load(replay, hands) {
    st.hands = hands;
    seatsBox.replaceChildren(...replay.names.map((name, seat) => el("div", { class: "rv-seat", "data-seat": String(seat) },
      el("span", "rv-name", name || `${seat + 1}`),
      el("button", { class: "rv-ask", id: `review-ask-${seat}`, onclick: () => ask(seat) }, t("review")),
      el("span", { class: "rv-status", id: `review-status-${seat}` }),
      el("button", { class: "rv-summary hidden", id: `review-summary-${seat}`, onclick: () => { st.wanted = seat; show(seat); } }))));
    replay.names.forEach((_, seat) => poll(seat)); // a review already made shows at once
  }
  const part = (kind, seat) => seatsBox.querySelector(`#review-${kind}-${seat}`);
  function status(seat, text, failed = false) {
    const s = part("status", seat);
    s.textContent = text;
    s.classList.toggle("error", failed);
  }
  async function ask(seat) {
    st.wanted = seat;
    part("ask", seat).disabled = true;
    const r = await fetch(`/api/games/${game}/review`, {
      method: "POST", headers: { "Content-Type": "application/json", ...csrfHeader() }, body: JSON.stringify({ seat, engine: ENGINE }),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { part("ask", seat).disabled = false; status(seat, data.message || r.statusText, true); return; }
    update(seat, data);
  }
  async function poll(seat) {
    if (st.stopped) return;
    const r = await fetch(`/api/games/${game}/review?seat=${seat}&engine=${ENGINE}`);
    if (r.status === 409) { node.classList.add("hidden"); return; } // a game that did not finish
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { status(seat, data.message || r.statusText, true); return; }
    if (data.status === "none") return; // nobody asked for it yet: the button stays
    update(seat, data);
  }
  function update(seat, data) {
    if (st.stopped) return;
    if (data.status === "done") { done(seat, data.review); return; }
    part("ask", seat).disabled = true;
    if (data.status === "failed") { status(seat, `${t("reviewFailed")}: ${data.error}`, true); return; }
    status(seat, data.status === "queued" ? t("reviewQueued") : `${t("reviewRunning")} ${data.done}/${data.total}`);
    const id = setTimeout(() => { st.timers.delete(id); poll(seat); }, POLL_MS);
    st.timers.add(id);
  }
  function done(seat, review) {
    st.reviews[seat] = review;
    st.marks[seat] = placeEntries(st.hands, review);
    part("ask", seat).classList.add("hidden");
    status(seat, "");
    const summary = part("summary", seat);
    summary.textContent = `${t("matchRate")} ${pct(review.match_rate)} · ${t("reviewRating")} ${review.rating.toFixed(3)}`
      + ` · ${t("blunders")} ${review.grades.blunder} · ${review.total_reviewed} ${t("decisions")}`;
    summary.classList.remove("hidden");
    // the seat asked for; else, of the reviews already made, the lowest seat's (whichever
    // answer comes first), until the reader picks one
    if (st.wanted === seat || (st.wanted === null && (st.active === null || seat < st.active))) show(seat);
  }
  function show(seat) {
    st.active = seat;
    seatsBox.querySelectorAll(".rv-seat").forEach((s) => s.classList.toggle("active", s.dataset.seat === String(seat)));
    nav.classList.remove("hidden");
    drawStrip();
    setView(seat); // the viewer redraws, and calls at()
  }
  function drawStrip() {
    const marks = st.marks[st.active] || [];
    const byRound = st.hands.map(() => []);
    marks.forEach((m, i) => byRound[m.round].push(el("button", {
      class: `rv-cell g-${m.entry.grade}`, "data-i": String(i),
      title: `${st.hands[m.round].label}: ${t(`grade_${m.entry.grade}`)}`, onclick: () => jump(m.round, m.step),
    })));
    strip.replaceChildren(...byRound.map((cells, r) => el("div", { class: "rv-hand", title: st.hands[r].label }, ...cells)));
  }
  function miss(direction) {
    const marks = (st.marks[st.active] || []).filter((m) => MISSES.has(m.entry.grade));
    const pick = direction > 0 ? marks.find((m) => before(st.at, m)) : marks.reverse().find((m) => before(m, st.at));
    if (pick) jump(pick.round, pick.step);
  }
  function worst() {
    const review = st.reviews[st.active];
    const top = review && review.costliest[0];
    const m = top && st.marks[st.active].find((x) => x.kyoku === top.kyoku && x.index === top.entry);
    if (m) jump(m.round, m.step);
  }
  function at(round, step) {
    st.at = { round, step };
    const marks = st.marks[st.active];
    if (!marks) { here.replaceChildren(); return; }
    strip.querySelectorAll(".rv-cell.here").forEach((c) => c.classList.remove("here"));
    const i = marks.findIndex((m) => same(m, st.at));
    if (i < 0) { here.replaceChildren(el("p", "muted", t("noDecisionHere"))); return; }
    strip.querySelector(`.rv-cell[data-i="${i}"]`)?.classList.add("here");
    here.replaceChildren(card(marks[i].entry));
  }
  function card(entry) {
    const shown = entry.details.slice(0, 3).map((d, i) => [d, i]);
    if (entry.actual_index >= 3) shown.push([entry.details[entry.actual_index], entry.actual_index]);
    const rows = shown.map(([d, i]) => el("tr", { class: `rv-choice${i === entry.actual_index ? " actual" : ""}` },
      el("td", "rv-rank", `${i + 1}`), el("td", "", actionNode(d.action)), el("td", "rv-value", value(d.q_value)),
      el("td", "rv-prob", pct(d.prob)), el("td", "rv-played", i === entry.actual_index ? t("played") : "")));
    const grade = el("span", { class: `rv-grade g-${entry.grade}`, id: "review-grade" }, t(`grade_${entry.grade}`));
    const loss = entry.grade === "agree" ? "" : ` ${t("loss")} ${value(entry.loss)}`;
    return el("div", "", el("div", "rv-head", grade, loss, " · ", t("reviewerChoices")),
      el("table", { class: "rv-choices", id: "review-choices" },
        el("tr", "", el("th", "", "#"), el("th", "", ""), el("th", "", t("value")), el("th", "", t("prob")), el("th", "", "")),
        ...rows));
  }
  function stop() {
    st.stopped = true;
    st.timers.forEach(clearTimeout);
  }
  return { node, load, at, stop };
}
