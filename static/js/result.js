// Round result (each win: hand, yaku with han, fu, dora/ura/red, points; every seat's delta)
// and the match end (placements and final scores). Only shows what the event carries.

import { tileEl, sortHand } from "./tiles.js";
import { t, yakuLabel, limitLabel, windName } from "./i18n.js";
import { seatWind } from "./model.js";
import { meldEl } from "./table.js";
import { downloads, copyButton, replayLink } from "./lobby.js";
import { endReason, scoreGraph } from "./graph.js";
import { el } from "./dom.js";
import { nameEl } from "./account.js";

const name = (tb, s) => tb.names[s] || `${windName(seatWind(tb, s))}`;
/** A seat's name as shown in a panel: the own account's links to its profile (a new tab: the
 * table stays open). */
const who = (tb, s) => (tb.names[s] ? nameEl(tb.names[s], { newTab: true }) : name(tb, s));
//: Tenhou's names of drawn hands -> the engine's kinds
const DRAW_KIND = { 流局: "exhaustive", 全員聴牌: "exhaustive", 全員不聴: "exhaustive", 流し満貫: "nagashi",
  九種九牌: "kyuushu", 四風連打: "suufon_renda", 四家立直: "suucha_riichi", 四槓散了: "suukaikan", 三家和了: "sanchahou" };

function drawLabel(reason) {
  const kind = DRAW_KIND[reason] || reason || "exhaustive";
  const label = t(`draw_${kind}`);
  return label.startsWith("draw_") ? reason : label;
}

function drawHands(tb, r) {
  // every seat, labelled tenpai or noten at a draw that counts them; the hands the event
  // reveals (the tenpai seats', a kyuushu declarer's) with the melds the table saw called
  const box = el("div", "drawhands");
  const counted = r.reason === "exhaustive" || r.reason === "nagashi" || !r.reason;
  const tenpai = new Set(r.tenpai || []);
  for (let s = 0; s < tb.n; s++) {
    const hand = (r.hands || [])[s];
    const shown = hand && hand.length; // the server sends null for hands that stay hidden
    if (!shown && !counted) continue;
    const row = el("div", "hand", el("span", "who", who(tb, s), " "));
    row.dataset.seat = String(s);
    if (counted) row.append(el("span", `label ${tenpai.has(s) ? "tenpai" : "noten"}`, tenpai.has(s) ? t("tenpai") : t("notenpai")));
    if (shown) sortHand(hand, tb.red).forEach((id) => row.append(tileEl(id, { red: tb.red })));
    const melds = shown && tb.players[s] ? tb.players[s].melds : [];
    if (melds.length) row.append(el("span", "melds", ...melds.map((m) => meldEl(tb, m, s))));
    box.append(row);
  }
  return box;
}

/**
 * Each seat's change and score. After the match's last hand the score is the final one, and
 * the change counts what the end added to the hand's payments (the riichi sticks left on the
 * table go to first place), so the two columns agree.
 */
function deltasTable(tb, r, final) {
  const table = el("table", "deltas");
  const deltas = r.deltas || [];
  const after = r.scores && r.scores.length ? r.scores : tb.scores;
  const end = final && final.scores && final.scores.length ? final.scores : after;
  table.append(el("tr", "", el("th", "", t("player")), el("th", "num", t("change")), el("th", "num", t("score"))));
  for (let s = 0; s < tb.n; s++) {
    const d = (deltas[s] || 0) + (end[s] - after[s]);
    const tr = el("tr", "", el("td", "", `${windName(seatWind(tb, s))} `, who(tb, s)),
      el("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, d > 0 ? `+${d}` : String(d)),
      el("td", "num", String(end[s])));
    tr.dataset.seat = String(s);
    table.append(tr);
  }
  return table;
}

function tilesRow(tb, ids, label) {
  const row = el("div", "indic", label);
  ids.forEach((id) => row.append(tileEl(id, { red: tb.red })));
  return row;
}

function winBlock(tb, w) {
  const box = el("div", "win");
  const how = w.tsumo ? t("tsumoWin") : `${t("ronWin")} ← ${name(tb, w.from)}`;
  box.append(el("h2", "", who(tb, w.who), ` ${how}`));
  const hand = el("div", "hand");
  const concealed = sortHand(w.hand.filter((x) => x !== w.winTile && x !== null), tb.red);
  concealed.forEach((id) => hand.append(tileEl(id, { red: tb.red })));
  if (w.winTile !== null && w.winTile !== undefined) hand.append(tileEl(w.winTile, { red: tb.red, cls: "win" }));
  // the called melds belong to the winning hand too (a pon of 中 is where "Red dragon" comes
  // from): the event's own, or else the ones the table saw being called
  const melds = w.melds && w.melds.length ? w.melds : (tb.players[w.who] ? tb.players[w.who].melds : []);
  if (melds.length) {
    const box2 = el("span", "melds");
    melds.forEach((m) => box2.append(meldEl(tb, m, w.who)));
    hand.append(box2);
  }
  box.append(hand);
  const yaku = el("table", "yaku");
  const row = (label, value) => yaku.append(el("tr", "", el("td", "", label), el("td", "num", value)));
  const kita = (w.counts && w.counts.kita) || 0;
  for (const y of w.yaku) {
    if (y.yakuman) { row(yakuLabel(y.name), t("yakuman")); continue; }
    // sanma: the engine (as Tenhou) counts the Norths set aside inside its "dora" han; they
    // are shown as what they are, beside the dora proper
    if (y.name === "dora" && kita) {
      if (y.han - kita > 0) row(yakuLabel("dora"), `${y.han - kita} ${t("han")}`);
      row(yakuLabel("kita"), `${kita} ${t("han")}`);
      continue;
    }
    row(yakuLabel(y.name), `${y.han} ${t("han")}`);
  }
  box.append(yaku);
  const parts = [];
  if (w.fu && !w.limit) parts.push(`${w.fu} ${t("fu")}`);
  if (w.han) parts.push(`${w.han} ${t("han")}`);
  if (w.limit) parts.push(limitLabel(w.limit));
  // a dealer's tsumo is paid the same by all: "4000 all" (4000オール), not the log's "∀"
  const all = /\s*∀$/.test(String(w.points));
  parts.push(all ? t("allPay").replace("{n}", String(w.points).replace(/\s*∀$/, "")) : `${w.points} ${t("points")}`);
  box.append(el("div", "score", parts.join(" · ")));
  if (w.counts) {
    const c = w.counts;
    const items = [`${t("dora")} ${c.dora}`, `${t("aka")} ${c.aka}`, `${t("ura")} ${c.ura}`];
    if (c.kita || tb.n === 3) items.push(`${yakuLabel("kita")} ${c.kita || 0}`);
    box.append(el("div", "counts", items.join(" · ")));
  }
  return box;
}

/** The panel for a round's result event; `final`: the match's end, when this was its last hand. */
export function resultPanel(tb, r, onOk, okLabel = null, final = null) {
  const p = el("div", "panel result");
  p.dataset.kind = r.kind;
  if (r.kind === "win") {
    r.wins.forEach((w) => p.append(winBlock(tb, w)));
    const dora = r.dora || tb.dora;
    if (dora && dora.length) p.append(tilesRow(tb, dora, `${t("dora")} `));
    if (r.ura && r.ura.length) p.append(tilesRow(tb, r.ura, `${t("ura")} `));
  } else {
    p.append(el("h2", "", drawLabel(r.reason)));
    p.append(drawHands(tb, r));
  }
  p.append(deltasTable(tb, r, final));
  const left = final && final.scores && r.scores && r.scores.length
    ? final.scores.reduce((sum, x, i) => sum + x - r.scores[i], 0) : 0;
  if (left > 0) p.append(el("div", "sticks", t("sticksToFirst").replace("{n}", String(left))));
  if (onOk) {
    const b = el("button", "ok", okLabel || t("next_round"));
    b.id = "result-ok";
    b.addEventListener("click", onOk);
    p.append(b);
  }
  return p;
}

/**
 * Final standings: placements by score (ties: the seat closer to the first dealer); with the
 * match's history (graph.js scoreHistory, and its preset's winds when known), why it ended
 * and the scores over the hands.
 */
export function finalPanel(tb, f, game, match = null) {
  const p = el("div", "panel final");
  p.id = "final";
  p.append(el("h2", "", t("final")));
  if (match && match.history && match.history.points.length) {
    p.append(el("div", { class: "reason", id: "end-reason" }, t(endReason(match.history, match.winds ?? null))));
  }
  const scores = f.scores || tb.scores;
  const order = [...Array(tb.n).keys()].sort((a, b) => scores[b] - scores[a] || a - b);
  const table = el("table", "standings");
  table.append(el("tr", "", el("th", "", t("place")), el("th", "", t("player")), el("th", "num", t("score")), el("th", "num", t("resultPts"))));
  order.forEach((s, i) => {
    const res = f.results ? f.results[s] : null;
    table.append(el("tr", "", el("td", "", String(i + 1)), el("td", "", who(tb, s)), el("td", "num", String(scores[s])),
      el("td", "num", res === null || res === undefined ? "" : (res > 0 ? `+${res}` : String(res)))));
  });
  p.append(table);
  if (match && match.history && match.history.points.length > 1) {
    p.append(scoreGraph(match.history, [...Array(tb.n).keys()].map((s) => name(tb, s))));
  }
  const lobby = el("a", "", t("lobby"));
  lobby.href = "#/";
  p.append(lobby);
  if (game) {
    const replay = el("a", "", t("replayGame"));
    replay.href = `#/replay/${game}`;
    replay.className = "replay-link";
    p.append(replay);
    p.append(el("div", "records", `${t("download")}: `, downloads(game), " ", copyButton(replayLink(game))));
  }
  return p;
}
