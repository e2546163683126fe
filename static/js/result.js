// Round result (each win: hand, yaku with han, fu, dora/ura/red, points; every seat's delta)
// and the match end (placements and final scores). Only shows what the event carries.

import { tileEl, sortHand } from "./tiles.js";
import { t, yakuLabel, limitLabel, windName } from "./i18n.js";
import { seatWind } from "./model.js";
import { meldEl } from "./table.js";
import { downloads, copyButton, replayLink } from "./lobby.js";

const h = (tag, cls, ...kids) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...kids);
  return e;
};
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
  const box = h("div", "drawhands");
  (r.hands || []).forEach((hand, s) => {
    if (!hand || !hand.length) return; // the server sends null for hands that stay hidden
    const row = h("div", "hand", h("span", "who", `${name(tb, s)} `));
    row.dataset.seat = String(s);
    sortHand(hand, tb.red).forEach((id) => row.append(tileEl(id, { red: tb.red })));
    box.append(row);
  });
  return box;
}

function deltasTable(tb, deltas) {
  const table = h("table", "deltas");
  for (let s = 0; s < tb.n; s++) {
    const d = deltas[s] || 0;
    const tr = h("tr", "", h("td", "", `${windName(seatWind(tb, s))} ${name(tb, s)}`),
      h("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, d > 0 ? `+${d}` : String(d)),
      h("td", "num", String(tb.scores[s])));
    tr.dataset.seat = String(s);
    table.append(tr);
  }
  return table;
}

function tilesRow(tb, ids, label) {
  const row = h("div", "indic", label);
  ids.forEach((id) => row.append(tileEl(id, { red: tb.red })));
  return row;
}

function winBlock(tb, w) {
  const box = h("div", "win");
  const how = w.tsumo ? t("tsumoWin") : `${t("ronWin")} ← ${name(tb, w.from)}`;
  box.append(h("h2", "", `${name(tb, w.who)} ${how}`));
  const hand = h("div", "hand");
  const concealed = sortHand(w.hand.filter((x) => x !== w.winTile && x !== null), tb.red);
  concealed.forEach((id) => hand.append(tileEl(id, { red: tb.red })));
  if (w.winTile !== null && w.winTile !== undefined) hand.append(tileEl(w.winTile, { red: tb.red, cls: "win" }));
  // the called melds belong to the winning hand too (a pon of 中 is where "Red dragon" comes
  // from): the event's own, or else the ones the table saw being called
  const melds = w.melds && w.melds.length ? w.melds : (tb.players[w.who] ? tb.players[w.who].melds : []);
  if (melds.length) {
    const box2 = h("span", "melds");
    melds.forEach((m) => box2.append(meldEl(tb, m, w.who)));
    hand.append(box2);
  }
  box.append(hand);
  const yaku = h("table", "yaku");
  for (const y of w.yaku) {
    yaku.append(h("tr", "", h("td", "", yakuLabel(y.name)), h("td", "num", y.yakuman ? t("yakuman") : `${y.han} ${t("han")}`)));
  }
  box.append(yaku);
  const parts = [];
  if (w.fu && !w.limit) parts.push(`${w.fu} ${t("fu")}`);
  if (w.han) parts.push(`${w.han} ${t("han")}`);
  if (w.limit) parts.push(limitLabel(w.limit));
  // a dealer's tsumo is paid the same by all: "4000 all", not the log's "∀"
  parts.push(`${String(w.points).replace(/\s*∀$/, ` ${t("all")}`)} ${t("points")}`);
  box.append(h("div", "score", parts.join(" · ")));
  if (w.counts) {
    const c = w.counts;
    const text = [`${t("dora")} ${c.dora}`, `${t("aka")} ${c.aka}`, `${t("ura")} ${c.ura}`].join(" · ");
    box.append(h("div", "counts", text));
  }
  return box;
}

/** The panel for a round's result event. */
export function resultPanel(tb, r, onOk, okLabel = null) {
  const p = h("div", "panel result");
  p.dataset.kind = r.kind;
  if (r.kind === "win") {
    r.wins.forEach((w) => p.append(winBlock(tb, w)));
    const dora = r.dora || tb.dora;
    if (dora && dora.length) p.append(tilesRow(tb, dora, `${t("dora")} `));
    if (r.ura && r.ura.length) p.append(tilesRow(tb, r.ura, `${t("ura")} `));
  } else {
    p.append(h("h2", "", drawLabel(r.reason)));
    p.append(drawHands(tb, r));
  }
  p.append(deltasTable(tb, r.deltas || []));
  if (onOk) {
    const b = h("button", "ok", okLabel || t("next_round"));
    b.id = "result-ok";
    b.addEventListener("click", onOk);
    p.append(b);
  }
  return p;
}

/** Final standings: placements by score (ties: the seat closer to the first dealer). */
export function finalPanel(tb, f, game) {
  const p = h("div", "panel final");
  p.id = "final";
  p.append(h("h2", "", t("final")));
  const scores = f.scores || tb.scores;
  const order = [...Array(tb.n).keys()].sort((a, b) => scores[b] - scores[a] || a - b);
  const table = h("table", "standings");
  table.append(h("tr", "", h("th", "", t("place")), h("th", "", ""), h("th", "num", t("score")), h("th", "num", "")));
  order.forEach((s, i) => {
    const res = f.results ? f.results[s] : null;
    table.append(h("tr", "", h("td", "", String(i + 1)), h("td", "", name(tb, s)), h("td", "num", String(scores[s])),
      h("td", "num", res === null || res === undefined ? "" : (res > 0 ? `+${res}` : String(res)))));
  });
  p.append(table);
  const lobby = h("a", "", t("lobby"));
  lobby.href = "#/";
  p.append(lobby);
  if (game) {
    const replay = h("a", "", t("replayGame"));
    replay.href = `#/replay/${game}`;
    replay.className = "replay-link";
    p.append(replay);
    p.append(h("div", "records", `${t("download")}: `, downloads(game), " ", copyButton(replayLink(game))));
  }
  return p;
}
