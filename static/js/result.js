// Round result (each win: hand, yaku with han, fu, dora/ura/red, points; every seat's delta)
// and the match end (placements and final scores). Only shows what the event carries.

import { tileEl, sortHand } from "./tiles.js";
import { t, yakuLabel, limitLabel, windName } from "./i18n.js";
import { seatWind } from "./model.js";
import { meldEl } from "./table.js";
import { downloads, copyButton, replayLink } from "./lobby.js";
import { el } from "./dom.js";

const name = (tb, s) => tb.names[s] || `${windName(seatWind(tb, s))}`;
//: Tenhou's names of drawn hands -> the engine's kinds
const DRAW_KIND = { 流局: "exhaustive", 全員聴牌: "exhaustive", 全員不聴: "exhaustive", 流し満貫: "nagashi",
  九種九牌: "kyuushu", 四風連打: "suufon_renda", 四家立直: "suucha_riichi", 四槓散了: "suukaikan", 三家和了: "sanchahou" };

function drawLabel(reason) {
  const kind = DRAW_KIND[reason] || reason || "exhaustive";
  const label = t(`draw_${kind}`);
  return label.startsWith("draw_") ? reason : label;
}

function drawHands(tb, r) {
  // the seats whose hands the event reveals (tenpai at an exhaustive draw, a kyuushu declarer)
  const box = el("div", "drawhands");
  (r.hands || []).forEach((hand, s) => {
    if (!hand || !hand.length) return; // the server sends null for hands that stay hidden
    const row = el("div", "hand", el("span", "who", `${name(tb, s)} `));
    row.dataset.seat = String(s);
    sortHand(hand, tb.red).forEach((id) => row.append(tileEl(id, { red: tb.red })));
    box.append(row);
  });
  return box;
}

function deltasTable(tb, deltas) {
  const table = el("table", "deltas");
  for (let s = 0; s < tb.n; s++) {
    const d = deltas[s] || 0;
    const tr = el("tr", "", el("td", "", `${windName(seatWind(tb, s))} ${name(tb, s)}`),
      el("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, d > 0 ? `+${d}` : String(d)),
      el("td", "num", String(tb.scores[s])));
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
  box.append(el("h2", "", `${name(tb, w.who)} ${how}`));
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
  for (const y of w.yaku) {
    yaku.append(el("tr", "", el("td", "", yakuLabel(y.name)), el("td", "num", y.yakuman ? t("yakuman") : `${y.han} ${t("han")}`)));
  }
  box.append(yaku);
  const parts = [];
  if (w.fu && !w.limit) parts.push(`${w.fu} ${t("fu")}`);
  if (w.han) parts.push(`${w.han} ${t("han")}`);
  if (w.limit) parts.push(limitLabel(w.limit));
  // a dealer's tsumo is paid the same by all: "4000 all", not the log's "∀"
  parts.push(`${String(w.points).replace(/\s*∀$/, ` ${t("all")}`)} ${t("points")}`);
  box.append(el("div", "score", parts.join(" · ")));
  if (w.counts) {
    const c = w.counts;
    const text = [`${t("dora")} ${c.dora}`, `${t("aka")} ${c.aka}`, `${t("ura")} ${c.ura}`].join(" · ");
    box.append(el("div", "counts", text));
  }
  return box;
}

/** The panel for a round's result event. */
export function resultPanel(tb, r, onOk, okLabel = null) {
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
  p.append(deltasTable(tb, r.deltas || []));
  if (onOk) {
    const b = el("button", "ok", okLabel || t("next_round"));
    b.id = "result-ok";
    b.addEventListener("click", onOk);
    p.append(b);
  }
  return p;
}

/** Final standings: placements by score (ties: the seat closer to the first dealer). */
export function finalPanel(tb, f, game) {
  const p = el("div", "panel final");
  p.id = "final";
  p.append(el("h2", "", t("final")));
  const scores = f.scores || tb.scores;
  const order = [...Array(tb.n).keys()].sort((a, b) => scores[b] - scores[a] || a - b);
  const table = el("table", "standings");
  table.append(el("tr", "", el("th", "", t("place")), el("th", "", ""), el("th", "num", t("score")), el("th", "num", "")));
  order.forEach((s, i) => {
    const res = f.results ? f.results[s] : null;
    table.append(el("tr", "", el("td", "", String(i + 1)), el("td", "", name(tb, s)), el("td", "num", String(scores[s])),
      el("td", "num", res === null || res === undefined ? "" : (res > 0 ? `+${res}` : String(res)))));
  });
  p.append(table);
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
