// The help panel at hand (the header's "?"): the yaku with their han closed and open, and the
// point table for a non-dealer and the dealer (points.js), in the page's language.

import { t, yakuLabel, limitLabel } from "./i18n.js";
import { el } from "./dom.js";
import { modal } from "./dialog.js";
import { YAKU_HAN, FU, HAN, LIMIT_ROWS, payments } from "./points.js";

const hanText = (h) => (h === 0 ? "—" : h >= 13 ? t("yakuman") : String(h));
const yakuName = (id) => (id === "jikaze" ? t("seatWindYaku") : id === "bakaze" ? t("roundWindYaku") : yakuLabel(id));

function yakuTable() {
  const table = el("table", { class: "ref yaku-list", id: "ref-yaku" },
    el("caption", null, t("yakuList")),
    el("tr", null, el("th", { scope: "col" }, t("yaku")), el("th", { scope: "col", class: "num" }, t("closedHan")), el("th", { scope: "col", class: "num" }, t("openHan"))));
  for (const [id, closed, open] of YAKU_HAN) {
    table.append(el("tr", { "data-yaku": id }, el("th", { scope: "row" }, yakuName(id)), el("td", "num", hanText(closed)), el("td", "num", hanText(open))));
  }
  return table;
}

const payText = (p, dealer) => {
  const ron = p.ron === null ? "—" : String(p.ron);
  const tsumo = p.tsumo === null ? "—" : dealer ? t("allPay").replace("{n}", String(p.tsumo[0])) : `${p.tsumo[0]}-${p.tsumo[1]}`;
  return `${ron} / ${tsumo}`;
};

function pointTable(dealer) {
  const id = dealer ? "ref-dealer" : "ref-child";
  const table = el("table", { class: "ref points", id },
    el("caption", null, `${dealer ? t("dealerPoints") : t("childPoints")} (${t("ron")} / ${t("tsumo")})`),
    el("tr", null, el("th", { scope: "col" }, t("fu")), ...HAN.map((h) => el("th", { scope: "col", class: "num" }, `${h} ${t("han")}`))));
  for (const fu of FU) {
    table.append(el("tr", { "data-fu": String(fu) }, el("th", { scope: "row" }, `${fu} ${t("fu")}`),
      ...HAN.map((h) => el("td", { class: "num", "data-han": String(h) }, payText(payments(h, fu, dealer), dealer)))));
  }
  for (const [key, han] of LIMIT_ROWS) {
    table.append(el("tr", { "data-limit": key }, el("th", { scope: "row" }, limitLabel(key)),
      el("td", { class: "num", colspan: String(HAN.length) }, payText(payments(han, 30, dealer), dealer))));
  }
  return table;
}

/** The header's "?" button opening the help panel. */
export function helpButton() {
  const b = el("button", { type: "button", id: "help", class: "help", "aria-label": t("help"), title: t("help") }, "?");
  b.addEventListener("click", () => {
    const d = modal(b, { id: "help-dialog", title: t("help"), cls: "help-panel",
      body: [el("p", "note", t("refNote")), el("div", "ref-cols", yakuTable(), el("div", null, pointTable(false), pointTable(true))),
        el("button", { type: "button", id: "help-close", onclick: () => d.close() }, t("close"))] });
    d.panel.focus();
  });
  return b;
}
