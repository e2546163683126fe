// Replay viewer: the engine's own god-view events of a game (a stored one, or a log the user
// uploads, which the server replays through the engine), applied through the very model the
// table uses. Step by event, draw, turn or hand; pick a viewpoint or open all hands.
// The rules the table needs (seats, red fives, wall) come with the events, from the server.

import { newTable, apply } from "./model.js";
import { fromEngine } from "./events.js";
import { renderBoard, renderHand, hoverMatches } from "./table.js";
import { resultPanel, finalPanel } from "./result.js";
import { t, windName } from "./i18n.js";
import { downloads, copyButton, replayLink, gameWinds } from "./lobby.js";
import { scoreHistory } from "./graph.js";
import { el } from "./dom.js";
import { reviewPanel } from "./review.js";

/**
 * The server's replay ({rules, names, events}) cut into hands of model events. A hand's
 * first step is its deal (everything before the first draw); every later model event is a
 * step; the match's GameEnded is the last hand's last step (the standings).
 */
export function handsOf(replay) {
  const n = replay.rules.players;
  const scratch = newTable(n, null, replay.rules);
  const hands = [];
  let start = null;
  // upto[s]: the server's events consumed through step s (where a review's event_index lands)
  replay.events.forEach((raw, i) => {
    const evs = fromEngine(raw, scratch);
    evs.forEach((e) => apply(scratch, e));
    if (raw.type === "BeginGame") { start = evs; return; }
    if (raw.type === "RoundStarted") hands.push({ start, label: label(raw, n), steps: [[]], upto: [i + 1] });
    const hand = hands[hands.length - 1];
    if (!hand || !evs.length) return;
    const dealt = hand.steps.length > 1 || evs.some((e) => e.t !== "round" && e.t !== "haipai" && e.t !== "dora");
    if (dealt) { hand.steps.push(evs); hand.upto.push(i + 1); } else { hand.steps[0].push(...evs); hand.upto[0] = i + 1; }
  });
  return hands;
}

/** Auto-play: one step per STEP_MS at 1×, and the speeds offered. */
const STEP_MS = 700;
const SPEEDS = [0.5, 1, 2, 4, 8];

const label = (e, n) => `${windName(Math.floor(e.kyoku / n))}${(e.kyoku % n) + 1}-${e.honba}`;

/** The table of `hand` after its first `step` steps (1 = the deal), seen from `view`. */
export function tableAt(replay, hand, step, view) {
  const tb = newTable(replay.rules.players, view, replay.rules);
  (hand.start || []).forEach((e) => apply(tb, e));
  tb.names = replay.names;
  hand.steps.slice(0, step).forEach((evs) => evs.forEach((e) => apply(tb, e)));
  return tb;
}

/** Where a step kind goes from (hand, step): the next draw, the viewpoint's next turn. */
function nextWhere(hands, at, test) {
  for (let r = at.round; r < hands.length; r++) {
    const steps = hands[r].steps;
    for (let s = r === at.round ? at.step : 0; s < steps.length; s++) {
      if (steps[s].some(test)) return { round: r, step: s + 1 };
    }
  }
  return null;
}

export function replayPage(root, opts = {}) {
  const state = { replay: null, hands: [], round: 0, step: 1, view: 0, all: true };
  const file = el("input", { type: "file", accept: ".json,.jsonl,.mjson,application/json", id: "replay-file" });
  const roundSel = el("select", { id: "replay-round" });
  const viewSel = el("select", { id: "replay-view" });
  const allBox = el("input", { type: "checkbox", id: "replay-all" });
  allBox.checked = true;
  const stepLabel = el("span", { id: "replay-step" });
  const bar = el("div", { class: "replaybar" },
    el("label", {}, t("openLog"), file),
    el("button", { id: "replay-hand-prev", title: t("prevHand"), "aria-label": t("prevHand"), onclick: () => hand(-1) }, "◀◀"),
    el("button", { id: "replay-prev", title: t("back"), "aria-label": t("back"), onclick: () => go(-1) }, "◀"),
    stepLabel,
    el("button", { id: "replay-next", title: t("forward"), "aria-label": t("forward"), onclick: () => go(1) }, "▶"),
    el("button", { id: "replay-draw", title: t("nextDraw"), onclick: () => jump((e) => e.t === "draw") }, t("nextDraw")),
    el("button", { id: "replay-turn", title: t("nextTurn"), onclick: () => jump((e) => (e.t === "draw" || e.t === "call") && e.seat === state.view) }, t("nextTurn")),
    el("button", { id: "replay-hand-next", title: t("nextHand"), "aria-label": t("nextHand"), onclick: () => hand(1) }, "▶▶"),
    el("label", {}, t("round"), roundSel), el("label", {}, t("viewpoint"), viewSel),
    el("label", {}, allBox, t("allHands")));
  // auto-play: a step every STEP_MS / speed until the match's end (Space starts and stops it)
  const speed = el("select", { id: "replay-speed" }, ...SPEEDS.map((x) => el("option", { value: String(x) }, `${x}×`)));
  speed.value = "1";
  const playBtn = el("button", { id: "replay-play", type: "button", "aria-pressed": "false", onclick: () => setPlaying(!timer) }, "");
  bar.append(playBtn, el("label", {}, t("speed"), speed));
  let timer = null;
  function setPlaying(on) {
    clearInterval(timer);
    timer = null;
    if (on && state.replay) {
      timer = setInterval(() => {
        const atEnd = state.round === state.hands.length - 1 && state.step >= count();
        if (atEnd) setPlaying(false); else go(1);
      }, STEP_MS / Number(speed.value));
    }
    playBtn.textContent = timer ? `❚❚ ${t("pause")}` : `▶ ${t("autoPlay")}`;
    playBtn.setAttribute("aria-pressed", timer ? "true" : "false");
  }
  speed.addEventListener("change", () => { if (timer) setPlaying(true); });
  setPlaying(false);
  if (opts.game) {
    // a stored game: its record within reach (Tenhou JSON, mjai) and a link to this replay
    bar.append(el("span", { class: "records" }, downloads(opts.game), " ", copyButton(replayLink(opts.game), "copy-replay")));
  }
  const boardBox = el("div", { class: "boardbox" });
  const below = el("div", { class: "below" });
  const wrap = el("div", { class: "tablewrap replay" }, boardBox, below);
  root.replaceChildren(bar, wrap);
  hoverMatches(wrap);
  // a stored game can be reviewed seat by seat (review.js)
  const review = opts.game ? reviewPanel({
    game: opts.game,
    jump: (round, step) => { Object.assign(state, { round, step }); draw(); },
    setView: (seat) => { state.view = seat; draw(); },
  }) : null;
  if (review) root.append(review.node);

  function fail(message) {
    stepLabel.textContent = message;
    stepLabel.classList.add("error");
  }
  function load(replay) {
    stepLabel.classList.remove("error");
    state.replay = replay;
    state.hands = handsOf(replay);
    state.match = { history: scoreHistory(replay.events), winds: null };
    if (opts.game) gameWinds(opts.game).then((w) => { state.match.winds = w; if (state.replay === replay) draw(); });
    state.round = 0; state.step = 1; state.view = 0;
    roundSel.replaceChildren(...state.hands.map((r, i) => el("option", { value: String(i) }, r.label)));
    viewSel.replaceChildren(...replay.names.map((nm, i) => el("option", { value: String(i) }, nm || `${i + 1}`)));
    draw();
    review?.load(replay, state.hands);
  }
  const count = () => state.hands[state.round].steps.length;
  function go(d) {
    if (!state.replay) return;
    state.step += d;
    if (state.step < 1 && state.round > 0) { state.round -= 1; state.step = count(); }
    else if (state.step > count()) {
      if (state.round + 1 < state.hands.length) { state.round += 1; state.step = 1; } else state.step = count();
    }
    state.step = Math.max(1, state.step);
    draw();
  }
  function jump(test) {
    if (!state.replay) return;
    const at = nextWhere(state.hands, state, test);
    if (at) Object.assign(state, at); else { state.round = state.hands.length - 1; state.step = count(); }
    draw();
  }
  function hand(d) {
    if (!state.replay) return;
    state.round = Math.min(Math.max(state.round + d, 0), state.hands.length - 1);
    state.step = 1;
    draw();
  }
  function draw() {
    const r = state.hands[state.round];
    const tb = tableAt(state.replay, r, state.step, state.view);
    roundSel.value = String(state.round);
    viewSel.value = String(state.view);
    stepLabel.textContent = `${state.step}/${r.steps.length}`;
    renderBoard(boardBox, tb, { bottom: state.view, showAll: state.all });
    const handBox = el("div", {});
    renderHand(handBox, tb, state.view, { show: true });
    below.replaceChildren(handBox);
    wrap.querySelectorAll(".overlay").forEach((o) => o.remove());
    // the hand's result is a step of its own; after the match's last hand, the standings
    const last = r.steps[state.step - 1];
    const end = last.find((e) => e.t === "end");
    const result = last.find((e) => e.t === "result");
    if (end) wrap.append(el("div", { class: "overlay" }, finalPanel(tb, end, opts.game || null, state.match)));
    else if (result) wrap.append(el("div", { class: "overlay" }, resultPanel(tb, result)));
    review?.at(state.round, state.step);
  }
  async function fetchReplay(url, init) {
    const r = await fetch(url, init);
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || r.statusText);
    return data;
  }
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    // the server replays the log through the engine; a round it does not reproduce is named
    const type = /\.(jsonl|mjson)$/i.test(f.name) ? "application/x-ndjson" : "application/json";
    fetchReplay("/api/replay", { method: "POST", headers: { "Content-Type": type }, body: await f.text() })
      .then(load).catch((err) => fail(err.message));
  });
  roundSel.addEventListener("change", () => { state.round = Number(roundSel.value); state.step = 1; draw(); });
  viewSel.addEventListener("change", () => { state.view = Number(viewSel.value); draw(); });
  allBox.addEventListener("change", () => { state.all = allBox.checked; draw(); });
  const onKey = (e) => {
    if (["SELECT", "INPUT"].includes(e.target.tagName)) return; // the control has the key
    if (document.querySelector(".overlay.modal")) return; // a dialog has the keys
    if (e.key === "ArrowRight") go(1);
    else if (e.key === "ArrowLeft") go(-1);
    else if (e.key === "PageDown") hand(1);
    else if (e.key === "PageUp") hand(-1);
    else if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); setPlaying(!timer); }
  };
  document.addEventListener("keydown", onKey);
  if (opts.url) fetchReplay(opts.url).then(load).catch((err) => fail(err.message));
  return () => { document.removeEventListener("keydown", onKey); clearInterval(timer); review?.stop(); };
}
