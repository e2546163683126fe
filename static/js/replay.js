// Replay viewer: step through a recorded game, jump to a round, pick a viewpoint or open all hands.
// Opens a Tenhou JSON log the user uploads, or a stored game's record from the server.

import { parseTenhou6 } from "./tenhou6.js";
import { newTable, apply } from "./model.js";
import { renderBoard, renderHand } from "./table.js";
import { resultPanel, finalPanel } from "./result.js";
import { t, windName } from "./i18n.js";
import { downloads, copyButton, replayLink } from "./lobby.js";

const h = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => (k.startsWith("on") ? e.addEventListener(k.slice(2), v) : e.setAttribute(k, v)));
  e.append(...kids);
  return e;
};

export function replayPage(root, opts = {}) {
  const state = { game: null, round: 0, step: 0, view: 0, all: true };
  const file = h("input", { type: "file", accept: ".json,application/json", id: "replay-file" });
  const roundSel = h("select", { id: "replay-round" });
  const viewSel = h("select", { id: "replay-view" });
  const allBox = h("input", { type: "checkbox", id: "replay-all" });
  allBox.checked = true;
  const stepLabel = h("span", { id: "replay-step" });
  const bar = h("div", { class: "replaybar" },
    h("label", {}, t("openLog"), file),
    h("button", { id: "replay-prev", title: t("back"), onclick: () => go(-1) }, "◀"),
    stepLabel,
    h("button", { id: "replay-next", title: t("forward"), onclick: () => go(1) }, "▶"),
    h("label", {}, t("round"), roundSel), h("label", {}, t("viewpoint"), viewSel),
    h("label", {}, allBox, t("allHands")));
  if (opts.game) {
    // a stored game: its record within reach (Tenhou JSON, mjai) and a link to this replay
    bar.append(h("span", { class: "records" }, downloads(opts.game), " ", copyButton(replayLink(opts.game), "copy-replay")));
  }
  const boardBox = h("div", { class: "boardbox" });
  const below = h("div", { class: "below" });
  const wrap = h("div", { class: "tablewrap replay" }, boardBox, below);
  root.replaceChildren(bar, wrap);

  function load(game) {
    state.game = parseTenhou6(game);
    state.round = 0; state.step = 1; state.view = 0;
    roundSel.replaceChildren(...state.game.rounds.map((r, i) => {
      const e = r[0];
      const label = `${windName(Math.floor(e.kyoku / state.game.n))}${(e.kyoku % state.game.n) + 1}-${e.honba}`;
      return h("option", { value: String(i) }, label);
    }));
    viewSel.replaceChildren(...state.game.names.map((nm, i) => h("option", { value: String(i) }, nm || `${i}`)));
    draw();
  }
  /** Steps of a round: its events, and after the match's last hand one more, the standings. */
  const steps = (r) => state.game.rounds[r].length + (r === state.game.rounds.length - 1 && state.game.final ? 1 : 0);
  function go(d) {
    if (!state.game) return;
    state.step += d;
    if (state.step < 1 && state.round > 0) { state.round -= 1; state.step = steps(state.round); }
    else if (state.step > steps(state.round)) {
      if (state.round + 1 < state.game.rounds.length) { state.round += 1; state.step = 1; } else state.step = steps(state.round);
    }
    state.step = Math.max(1, state.step);
    draw();
  }
  function draw() {
    const g = state.game;
    const tb = newTable(g.n, state.view);
    tb.names = g.names;
    const evs = g.rounds[state.round];
    const shown = Math.min(state.step, evs.length);
    for (let i = 0; i < shown; i++) apply(tb, evs[i]);
    roundSel.value = String(state.round);
    viewSel.value = String(state.view);
    stepLabel.textContent = `${state.step}/${steps(state.round)}`;
    renderBoard(boardBox, tb, { bottom: state.view, showAll: state.all });
    const hand = h("div", {});
    renderHand(hand, tb, state.view, { show: true });
    below.replaceChildren(hand);
    wrap.querySelectorAll(".overlay").forEach((o) => o.remove());
    // the last hand's result is a step of its own; the standings come one step after it
    if (state.step > evs.length) wrap.append(h("div", { class: "overlay" }, finalPanel(tb, g.final, opts.game || null)));
    else if (evs[shown - 1].t === "result") wrap.append(h("div", { class: "overlay" }, resultPanel(tb, evs[shown - 1])));
  }
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (f) load(JSON.parse(await f.text()));
  });
  roundSel.addEventListener("change", () => { state.round = Number(roundSel.value); state.step = 1; draw(); });
  viewSel.addEventListener("change", () => { state.view = Number(viewSel.value); draw(); });
  allBox.addEventListener("change", () => { state.all = allBox.checked; draw(); });
  const onKey = (e) => {
    if (["SELECT", "INPUT"].includes(e.target.tagName)) return; // the control has the key
    if (e.key === "ArrowRight") go(1);
    else if (e.key === "ArrowLeft") go(-1);
  };
  document.addEventListener("keydown", onKey);
  if (opts.url) {
    // a stored game, exported by the server as Tenhou JSON
    fetch(opts.url).then(async (r) => {
      const data = await r.json();
      if (!r.ok) throw new Error(data.message || r.statusText);
      load(data);
    }).catch((err) => { stepLabel.textContent = err.message; stepLabel.classList.add("error"); });
  }
  return () => document.removeEventListener("keydown", onKey);
}
