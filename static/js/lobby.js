// Lobby: the public room list, creating a room (rules, bots, clock), joining by code or link.

import { t } from "./i18n.js";

const h = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else if (v !== null) e.setAttribute(k, v);
  }
  e.append(...kids);
  return e;
};

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

const myName = () => localStorage.getItem("name") || "";

/** Keep the seat token so a refresh or a dropped connection can take the seat back. */
export function takeSeat(grant) {
  localStorage.setItem(`seat:${grant.room.game}`, grant.token);
  localStorage.setItem(`code:${grant.room.game}`, grant.room.code);
  location.hash = `#/play/${grant.room.game}`;
}

export const shareLink = (code) => `${location.origin}${location.pathname}#/room/${code}`;

function nameInput() {
  const i = h("input", { id: "name", maxlength: "24", value: myName(), autocomplete: "nickname" });
  i.addEventListener("change", () => localStorage.setItem("name", i.value.trim()));
  return h("label", {}, t("name"), i);
}

export function lobbyPage(root) {
  const err = h("div", { class: "error", id: "lobby-error" });
  const preset = h("select", { id: "preset" });
  const bots = h("select", { id: "bots" }, ...[0, 1, 2, 3, 4].map((n) => h("option", { value: String(n) }, String(n))));
  bots.value = "3";
  const base = h("input", { id: "base", type: "number", min: "1", max: "60", value: "5", style: "width:5em" });
  const bank = h("input", { id: "bank", type: "number", min: "0", max: "300", value: "20", style: "width:5em" });
  const create = h("button", { id: "create", onclick: async () => {
    localStorage.setItem("name", document.getElementById("name").value.trim());
    try {
      const body = { name: myName(), preset: preset.value, bots: Number(bots.value), base_s: Number(base.value), bank_s: Number(bank.value) };
      const res = await api("/api/rooms", body);
      if (res.token) takeSeat(res); else location.hash = `#/watch/${res.game}`;
    } catch (e) { err.textContent = e.message; }
  } }, t("create"));
  const code = h("input", { id: "join-code", maxlength: "8", style: "text-transform:uppercase;width:8em" });
  const join = h("button", { id: "join", onclick: () => { if (code.value.trim()) location.hash = `#/room/${code.value.trim().toUpperCase()}`; } }, t("join"));
  const list = h("ul", { class: "rooms", id: "rooms" });
  const [finished, refreshFinished] = finishedSection();
  root.replaceChildren(h("div", { class: "page" },
    h("section", {}, h("h2", {}, t("create")), nameInput(), h("label", {}, t("preset"), preset), h("label", {}, t("bots"), bots),
      h("label", {}, t("clock"), h("span", {}, base, " + ", bank)), h("div", {}, create), err),
    h("section", {}, h("h2", {}, t("join")), h("label", {}, t("code"), code), join),
    h("section", {}, h("h2", {}, t("rooms")), list),
    finished));
  api("/api/presets").then((d) => {
    preset.replaceChildren(...d.presets.map((p) => h("option", { value: p }, p)));
    preset.value = d.presets.includes("tenhou-tonpuu") ? "tenhou-tonpuu" : d.presets[0];
  }).catch((e) => { err.textContent = e.message; });
  const refresh = () => api("/api/rooms").then((d) => {
    if (!d.rooms.length) { list.replaceChildren(h("li", {}, t("noRooms"))); return; }
    list.replaceChildren(...d.rooms.map((r) => {
      const humans = r.seats.filter((s) => s.name && !s.bot).map((s) => s.name).join(", ");
      const act = r.status === "waiting" ? h("a", { href: `#/room/${r.code}` }, t("join")) : h("a", { href: `#/watch/${r.game}` }, t("watch"));
      return h("li", { "data-code": r.code }, h("span", { class: "code" }, r.code), h("span", {}, r.preset), h("span", {}, r.status), h("span", {}, humans), act);
    }));
  }).catch(() => {});
  refresh();
  const timer = setInterval(() => { refresh(); refreshFinished(); }, 3000);
  return () => clearInterval(timer);
}

const PAGE = 10;

/** Finished games, newest first, each opening the replay viewer; "more" pages back in time.
 * Returns the section and a refresh that reloads the first page (until the user pages on). */
function finishedSection() {
  const list = h("ul", { class: "rooms finished", id: "finished" });
  const more = h("button", { id: "finished-more", hidden: "" }, t("more"));
  let before = null, paged = false;
  const row = (g) => {
    const scores = g.seats.map((nm, i) => `${nm} ${g.scores ? g.scores[i] : "?"}`).join(" · ");
    return h("li", { "data-game": g.id }, h("span", {}, new Date(g.finished).toLocaleString()), h("span", {}, g.preset),
      h("span", { class: "scores" }, scores), h("a", { href: `#/replay/${g.id}` }, t("replay")));
  };
  const fetchPage = (first) => api(`/api/games?status=finished&limit=${PAGE}${first ? "" : `&before=${before}`}`).then((d) => {
    if (first) list.replaceChildren(...(d.games.length ? [] : [h("li", {}, t("noFinished"))]));
    list.append(...d.games.map(row));
    if (d.games.length) before = d.games[d.games.length - 1].finished;
    if (d.games.length === PAGE) more.removeAttribute("hidden"); else more.setAttribute("hidden", "");
  }).catch(() => {});
  more.addEventListener("click", () => { paged = true; fetchPage(false); });
  fetchPage(true);
  return [h("section", {}, h("h2", {}, t("finishedGames")), list, more), () => { if (!paged) fetchPage(true); }];
}

export function joinPage(root, code) {
  const err = h("div", { class: "error", id: "join-error" });
  const info = h("div", {});
  const go = h("button", { id: "join-seat", onclick: async () => {
    localStorage.setItem("name", document.getElementById("name").value.trim());
    try { takeSeat(await api(`/api/rooms/${code}/join`, { name: myName() })); } catch (e) { err.textContent = e.message; }
  } }, t("join"));
  root.replaceChildren(h("div", { class: "page" }, h("section", {}, h("h2", {}, `${t("code")} ${code}`), info, nameInput(), go, err)));
  api(`/api/rooms/${code}`).then((r) => {
    info.replaceChildren(h("div", {}, `${r.preset} · ${r.status}`), h("div", {}, r.seats.map((s) => s.name || "—").join(" / ")));
    if (r.status !== "waiting") info.append(h("a", { href: `#/watch/${r.game}` }, t("watch")));
  }).catch((e) => { err.textContent = e.message; });
  return () => {};
}

/** Waiting-room panel on the table page: code, share link, start with bots. */
export function waitingPanel(room, token) {
  const link = shareLink(room.code);
  return h("div", { class: "panel waiting", id: "waiting" },
    h("h2", {}, `${t("code")}: ${room.code}`),
    h("div", {}, t("share")), h("div", { class: "sharelink", id: "share-link" }, link),
    h("div", {}, room.seats.map((s) => s.name || "—").join(" / ")),
    h("button", { id: "start", onclick: () => api(`/api/rooms/${room.code}/start`, { token }).catch(() => {}) }, t("start")));
}
