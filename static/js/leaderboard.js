// `#/leaderboard[/LOBBY]`: one lobby's standings (GET /api/leaderboard?lobby=), ordered by the
// server (dan, points, R); each name opens its profile; "more" reads the next page.

import { t, danName } from "./i18n.js";
import { el } from "./dom.js";
import { call, errorText, nameEl, me } from "./account.js";
import { lobbyList, lobbyLabel } from "./ranked.js";

const PAGE = 50;

export function leaderboardPage(root, lobby) {
  const pick = el("select", { id: "board-lobby", onchange: () => { location.hash = `#/leaderboard/${encodeURIComponent(pick.value)}`; } });
  const body = el("tbody", { id: "board-rows" });
  const more = el("button", { type: "button", id: "board-more", hidden: "" }, t("more"));
  const note = el("p", { class: "muted", id: "board-note" });
  const head = el("tr", "", ...[[t("rank"), "num"], [t("player"), ""], [t("dan"), ""], [t("pt"), "num"], [t("rating"), "num"], [t("games"), "num"]]
    .map(([h, cls]) => el("th", { scope: "col", class: cls || null }, h)));
  const section = el("section", { "aria-labelledby": "board-title" }, el("h2", { id: "board-title" }, t("leaderboard")),
    el("label", { for: "board-lobby" }, t("lobbyName"), pick),
    el("div", "scroll", el("table", { class: "leaderboard" }, el("thead", "", head), body)), note, more);
  const page = el("div", { class: "page leaderboard-page" }, section);
  root.replaceChildren(page);
  let offset = 0;
  const row = (p) => el("tr", { "data-name": p.name, class: p.name === me() ? "me" : null },
    el("td", "num", String(p.rank)), el("th", { scope: "row" }, nameEl(p.name, { always: true })),
    el("td", "dan", danName(p.dan)), el("td", "num", String(p.points)), el("td", "num", p.rating.toFixed(2)), el("td", "num", String(p.games)));
  const read = (name) => call("GET", `/api/leaderboard?lobby=${encodeURIComponent(name)}&limit=${PAGE}&offset=${offset}`).then((d) => {
    body.append(...d.players.map(row));
    offset += d.players.length;
    if (!offset) note.textContent = t("noPlayers");
    if (d.players.length === PAGE) more.removeAttribute("hidden"); else more.setAttribute("hidden", "");
    page.dataset.ready = "1";
  });
  lobbyList().then((lobbies) => {
    pick.replaceChildren(...lobbies.map((l) => el("option", { value: l.name }, lobbyLabel(lobbies, l.name))));
    const chosen = lobbies.some((l) => l.name === lobby) ? lobby : lobbies.length ? lobbies[0].name : null;
    if (chosen === null) { note.textContent = t("noPlayers"); page.dataset.ready = "1"; return; }
    pick.value = chosen;
    more.addEventListener("click", () => read(chosen).catch((e) => { note.textContent = errorText(e); }));
    return read(chosen);
  }).catch((e) => { note.textContent = errorText(e); page.dataset.ready = "1"; });
  return () => {};
}
