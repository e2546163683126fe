// Advice at a practice table (docs/protocol.md "Advice"): the server's strong reviewer ranks
// the open inquiry's choices; the page asks ({type: "advice", inquiry}) on the Hint button, or
// for every decision with "Always show", and marks the ranking on the hand's tiles, the call
// buttons and a call's tile choices: the best outlined, the first three numbered, every value
// on hover. Only a table whose room says `advice` offers it (every other seat a bot, neither
// ranked nor a tournament's); the page never ranks anything itself.

import { t, addWords } from "./i18n.js";
import { el } from "./dom.js";

addWords({
  en: { hint: "Hint", hintAlways: "Always show", hintRank: "hint", hintValue: "value" },
  ja: { hint: "AI候補", hintAlways: "常に表示", hintRank: "AI候補", hintValue: "評価値" },
  zh: { hint: "AI候选", hintAlways: "始终显示", hintRank: "AI候选", hintValue: "评估值" },
});

/** How many of the best choices get a number. */
const NUMBERED = 3;
const KEY = "hintAlways";

export const alwaysHint = () => localStorage.getItem(KEY) === "1";

/** A decision worth advice: more than one thing to do (as the review counts decisions). */
export const worthAdvice = (inq) =>
  !!inq && (inq.actions.length > 1 || inq.actions.some((a) => a.options.length > 1));

/** The server's ranking as a map "action:option" -> {value, rank} (rank 0 is the best). */
export function adviceMap(options) {
  const map = new Map();
  options.forEach((o, i) => map.set(`${o.action}:${o.option}`, { value: o.value, rank: i, action: o.action, option: o.option }));
  return map;
}

/** The best-ranked of several choices (or undefined). */
const best = (marks) => marks.filter(Boolean).sort((x, y) => x.rank - y.rank)[0];

function mark(node, m) {
  if (!m) return;
  node.classList.add("advised");
  node.classList.toggle("adv-best", m.rank === 0);
  node.dataset.adviceRank = String(m.rank);
  node.dataset.adviceValue = String(m.value);
  node.dataset.adviceAction = String(m.action);
  node.dataset.adviceOption = String(m.option);
  const words = `${t("hintRank")} ${m.rank + 1} · ${t("hintValue")} ${formatValue(m.value)}`;
  node.title = words;
  if (m.rank < NUMBERED) node.append(el("span", { class: "adv-rank", "aria-hidden": "true" }, String(m.rank + 1)));
  node.append(el("span", "sr-only", ` (${words})`));
}

/** A value as the bot's own figure, short: 1.2e7, 104000, 35.5. */
export function formatValue(v) {
  if (Math.abs(v) >= 1e6) return v.toExponential(1).replace("+", "");
  return Math.abs(v) >= 100 ? String(Math.round(v)) : String(Math.round(v * 10) / 10);
}

/**
 * Mark the advice on the seat's drawn controls: `hand` (the tiles that may be played now, by
 * `can`: tile id -> {action, option}), `actions` (the buttons, each with its data-action) and,
 * while a call's tiles are chosen, its choices (`choosing`: that action's index).
 */
export function markAdvice(map, { hand, can, actions, inq, choosing }) {
  if (!map || !inq) return;
  if (hand) {
    hand.querySelectorAll(".tile.can").forEach((e) => {
      const info = can.get(Number(e.dataset.tile));
      if (info) mark(e, map.get(`${info.action}:${info.option}`));
    });
  }
  if (!actions) return;
  actions.querySelectorAll("button[data-action]").forEach((b) => {
    const ai = Number(b.dataset.action);
    mark(b, best(inq.actions[ai].options.map((_, oi) => map.get(`${ai}:${oi}`))));
  });
  if (choosing !== null && choosing !== undefined) {
    actions.querySelectorAll(".choice[data-option]").forEach((c) => mark(c, map.get(`${choosing}:${c.dataset.option}`)));
  }
}

/** The Hint button and the "Always show" box; `ask()` asks for the open decision's advice. */
export function adviceControls({ ask, canAsk, onAlways }) {
  const hint = el("button", { type: "button", id: "hint", class: "hint", onclick: ask }, t("hint"));
  hint.disabled = !canAsk;
  const box = el("input", { type: "checkbox", id: "hint-always", onchange: () => {
    localStorage.setItem(KEY, box.checked ? "1" : "0");
    onAlways(box.checked);
  } });
  box.checked = alwaysHint();
  return el("div", { class: "advice", id: "advice" }, hint, el("label", { class: "hint-always" }, box, t("hintAlways")));
}
