// Lobby: the public room list, creating a room (rules, bots, clock), joining by code or link.

import { t, presetName } from "./i18n.js";
import { el } from "./dom.js";
import { nameEl } from "./account.js";
import { rankedSection } from "./ranked.js";

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

/** The presets the server offers, by key: {name, label, players, winds} (GET /api/presets). */
const presetInfo = new Map();

/** Read /api/presets (an older server lists bare keys) into presetInfo; the list, in order. */
export function presetList(presets) {
  const listed = presets.map((p) => (typeof p === "string" ? { name: p, label: p, players: p.includes("sanma") ? 3 : 4, winds: 0 } : p));
  for (const p of listed) presetInfo.set(p.name, p);
  return listed;
}

/** What a person reads for a preset key, in the page's language (a known key never shows raw,
 * even before the list has come). */
export const presetLabel = (name) => presetName(name, presetInfo.has(name) ? presetInfo.get(name).label : null);

/** The winds (1 tonpuusen, 2 hanchan) of a stored game's preset, or null when not known. */
export async function gameWinds(game) {
  try {
    const [record, presets] = await Promise.all([api(`/api/games/${game}/record?format=json`), api("/api/presets")]);
    presetList(presets.presets);
    const p = presetInfo.get(record.preset);
    return p && p.winds ? p.winds : null;
  } catch { return null; }
}

const myName = () => localStorage.getItem("name") || "";

/** Keep the seat token so a refresh or a dropped connection can take the seat back, and the
 * node that runs the room (a cluster's `room.node`), where that seat is played. */
export function takeSeat(grant) {
  const game = grant.room.game;
  localStorage.setItem(`seat:${game}`, grant.token);
  localStorage.setItem(`code:${game}`, grant.room.code);
  if (grant.room.node) localStorage.setItem(`node:${game}`, grant.room.node);
  else localStorage.removeItem(`node:${game}`);
  location.hash = `#/play/${game}`;
}

/** The base URL of the node that runs the game this browser holds a seat of (null: this
 * page's own server). */
export const seatNode = (game) => localStorage.getItem(`node:${game}`);

export const shareLink = (code) => `${location.origin}${location.pathname}#/room/${code}`;

function nameInput() {
  const i = el("input", { id: "name", maxlength: "24", value: myName(), autocomplete: "nickname" });
  i.addEventListener("change", () => localStorage.setItem("name", i.value.trim()));
  return el("label", {}, t("name"), i);
}

/** Small labels a room carries: practice (a chosen seed), broadcast (god view, delayed), locked. */
export function roomTags(r) {
  const tags = [];
  if (r.practice || r.seeded) tags.push(el("span", { class: "tag practice" }, t("practice")));
  if (r.broadcast) tags.push(el("span", { class: "tag broadcast" }, t("broadcast")));
  if (r.locked) tags.push(el("span", { class: "tag locked" }, t("locked")));
  return tags;
}

export const statusLabel = (s) => el("span", { class: `status-${s}` }, t(`status_${s}`));

/** The seat token this browser holds for a game, if any (kept by takeSeat). */
export const heldToken = (game) => localStorage.getItem(`seat:${game}`);

/** Download links for a game's record (Tenhou JSON and mjai), as the server exports them. */
export function downloads(game) {
  return el("span", { class: "downloads" },
    el("a", { href: `/api/games/${game}/record?format=tenhou`, download: `${game}.tenhou.json`, class: "dl-tenhou" }, "↓ Tenhou JSON"),
    " ",
    el("a", { href: `/api/games/${game}/record?format=mjai`, download: `${game}.mjai.jsonl`, class: "dl-mjai" }, "↓ mjai"));
}

/** A button that copies `text` (a link) to the clipboard and says so. */
export function copyButton(text, id) {
  const b = el("button", { class: "copy", type: "button", ...(id ? { id } : {}) }, t("copyLink"));
  b.dataset.link = text;
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = t("copied"); } catch {
      // no clipboard (plain http): show the link selected so the user can copy it
      b.replaceWith(el("input", { class: "copy", value: text, readonly: "", onfocus: (e) => e.target.select() }));
    }
  });
  return b;
}

export const replayLink = (game) => `${location.origin}${location.pathname}#/replay/${game}`;

export function lobbyPage(root) {
  const err = el("div", { class: "error", id: "lobby-error" });
  const preset = el("select", { id: "preset" });
  const bots = el("select", { id: "bots" }, ...[0, 1, 2, 3, 4].map((n) => el("option", { value: String(n) }, String(n))));
  bots.value = "3";
  // which bot plays the bot seats (GET /api/bots: name, one-line description, default)
  const botKind = el("select", { id: "bot-kind" });
  const base = el("input", { id: "base", type: "number", min: "1", max: "60", value: "5", class: "num" });
  const bank = el("input", { id: "bank", type: "number", min: "0", max: "300", value: "20", class: "num" });
  const broadcast = el("input", { id: "broadcast", type: "checkbox" });
  const create = el("button", { id: "create", onclick: async () => {
    localStorage.setItem("name", document.getElementById("name").value.trim());
    try {
      const body = { name: myName(), preset: preset.value, bots: Number(bots.value), base_s: Number(base.value), bank_s: Number(bank.value) };
      if (broadcast.checked) body.broadcast = true;
      if (botKind.value) body.bot_names = Array(body.bots).fill(botKind.value);
      const res = await api("/api/rooms", body);
      if (res.token) takeSeat(res); else location.hash = `#/watch/${res.game}`;
    } catch (e) { err.textContent = e.message; }
  } }, t("create"));
  // no room before the presets are known: an early click would ask for preset "" and fail
  create.disabled = true;
  const code = el("input", { id: "join-code", maxlength: "8", class: "roomcode" });
  const join = el("button", { id: "join", onclick: () => { if (code.value.trim()) location.hash = `#/room/${code.value.trim().toUpperCase()}`; } }, t("join"));
  const list = el("ul", { class: "rooms", id: "rooms" });
  const [finished, refreshFinished] = finishedSection();
  const [ranked, stopRanked] = rankedSection();
  root.replaceChildren(el("div", { class: "page" }, ranked,
    el("section", {}, el("h2", {}, t("create")), nameInput(), el("label", {}, t("preset"), preset), el("label", {}, t("bots"), bots),
      el("label", {}, t("botKind"), botKind),
      el("label", {}, t("clock"), el("span", {}, base, " + ", bank)),
      el("div", {}, el("label", { class: "check" }, broadcast, t("broadcastOpt"))), el("div", {}, create), err),
    el("section", {}, el("h2", {}, t("join")), el("label", {}, t("code"), code), join),
    el("section", {}, el("h2", {}, t("rooms")), list),
    finished));
  // the bot choices follow the preset's seats: a sanma table has three, so at most 3 bots
  const seatBots = () => {
    const n = (presetInfo.get(preset.value) || { players: 4 }).players;
    const keep = Math.min(Number(bots.value), n - 1);
    bots.replaceChildren(...Array.from({ length: n + 1 }, (_, i) => el("option", { value: String(i) }, String(i))));
    bots.value = String(keep);
  };
  preset.addEventListener("change", seatBots);
  api("/api/bots").then((d) => {
    botKind.replaceChildren(...d.bots.map((b) => el("option", { value: b.name, title: b.description }, `${b.name}: ${b.description}`)));
    botKind.value = d.default;
  }).catch(() => {});
  api("/api/presets").then((d) => {
    const listed = presetList(d.presets);
    preset.replaceChildren(...listed.map((p) => el("option", { value: p.name, "data-players": String(p.players) }, presetLabel(p.name))));
    preset.value = presetInfo.has("tenhou-tonpuu") ? "tenhou-tonpuu" : listed[0].name;
    seatBots();
    create.disabled = false;
    refresh();
  }).catch((e) => { err.textContent = e.message; });
  const refresh = () => api("/api/rooms").then((d) => {
    if (!d.rooms.length) { list.replaceChildren(el("li", {}, t("noRooms"))); return; }
    list.replaceChildren(...d.rooms.map((r) => {
      const humans = r.seats.filter((s) => s.name && !s.bot).flatMap((s, i) => [i ? ", " : "", nameEl(s.name)]);
      const acts = [];
      // a game this browser holds a seat of: back to it, not merely "watch"
      if (heldToken(r.game) && r.status !== "finished" && r.status !== "aborted") {
        acts.push(el("a", { href: `#/play/${r.game}`, class: "back-to-seat" }, t("backToSeat")));
      } else if (r.status === "waiting") acts.push(el("a", { href: `#/room/${r.code}`, class: "join" }, t("join")));
      else acts.push(el("a", { href: `#/watch/${r.game}`, class: "watch" }, t("watch")));
      return el("li", { "data-code": r.code, "data-status": r.status }, el("span", { class: "code" }, r.code), el("span", { class: "preset" }, presetLabel(r.preset)),
        statusLabel(r.status), ...roomTags(r), el("span", { class: "humans" }, ...humans), ...acts);
    }));
  }).catch(() => {});
  refresh();
  const timer = setInterval(() => { refresh(); refreshFinished(); }, 3000);
  return () => { clearInterval(timer); stopRanked(); };
}

const PAGE = 10;

/** Finished games, newest first, each opening the replay viewer; "more" pages back in time.
 * Returns the section and a refresh that reloads the first page (until the user pages on). */
function finishedSection() {
  const list = el("ul", { class: "rooms finished", id: "finished" });
  const more = el("button", { id: "finished-more", hidden: "" }, t("more"));
  let before = null, paged = false;
  const row = (g) => {
    const scores = g.seats.flatMap((nm, i) => [i ? " · " : "", nameEl(nm), ` ${g.scores ? g.scores[i] : "?"}`]);
    return el("li", { "data-game": g.id, "data-finished": String(g.finished) }, el("span", {}, new Date(g.finished).toLocaleString()), el("span", { class: "preset" }, presetLabel(g.preset)),
      ...(g.status && g.status !== "finished" ? [statusLabel(g.status)] : []),
      el("span", { class: "scores" }, ...scores), el("a", { href: `#/replay/${g.id}`, class: "replay" }, t("replay")),
      downloads(g.id), copyButton(replayLink(g.id)));
  };
  const fetchPage = (first) => api(`/api/games?status=finished&limit=${PAGE}${first ? "" : `&before=${before}`}`).then((d) => {
    if (first) list.replaceChildren(...(d.games.length ? [] : [el("li", {}, t("noFinished"))]));
    list.append(...d.games.map(row));
    if (d.games.length) before = d.games[d.games.length - 1].finished;
    if (d.games.length === PAGE) more.removeAttribute("hidden"); else more.setAttribute("hidden", "");
  }).catch(() => {});
  more.addEventListener("click", () => { paged = true; fetchPage(false); });
  fetchPage(true);
  return [el("section", {}, el("h2", {}, t("finishedGames")), list, more), () => { if (!paged) fetchPage(true); }];
}

/** The join page of a share link; `invite` is the key of a locked room's invite link. */
export function joinPage(root, code, invite = "") {
  const err = el("div", { class: "error", id: "join-error" });
  const info = el("div", {});
  const go = el("button", { id: "join-seat", onclick: async () => {
    localStorage.setItem("name", document.getElementById("name").value.trim());
    const body = { name: myName() };
    if (invite) body.invite = invite;
    try { takeSeat(await api(`/api/rooms/${code}/join`, body)); } catch (e) { err.textContent = e.message; }
  } }, t("join"));
  root.replaceChildren(el("div", { class: "page" }, el("section", {}, el("h2", {}, `${t("code")} ${code}`), info, nameInput(), go, err)));
  // the presets first (their labels), the room either way
  api("/api/presets").then((d) => presetList(d.presets)).catch(() => {}).then(() => api(`/api/rooms/${code}`)).then((r) => {
    info.replaceChildren(el("div", { class: "roominfo" }, `${presetLabel(r.preset)} · `, statusLabel(r.status), " ", ...roomTags(r)),
      el("div", {}, r.seats.map((s) => s.name || "—").join(" / ")));
    if (heldToken(r.game) && r.status !== "finished") info.append(el("a", { href: `#/play/${r.game}`, class: "back-to-seat" }, t("backToSeat")));
    else if (r.status !== "waiting") info.append(el("a", { href: `#/watch/${r.game}` }, t("watch")));
  }).catch((e) => { err.textContent = e.message; });
  return () => {};
}

/** Invite link of a locked room: the join page with the room's key. */
export const inviteLink = (code, key) => `${shareLink(code)}/${encodeURIComponent(key)}`;

/**
 * Waiting-room panel on the table page: code, share link, the seats. Only the room's owner
 * (RoomInfo.owner is their seat) gets Start, Kick per seated human and Lock (with the
 * invite link); the server checks the token either way. `invite` is the last lock answer.
 */
export function waitingPanel(room, token, seat, ui = {}) {
  const owner = room.owner === undefined ? true : room.owner === seat; // an old server names no owner
  const err = el("div", { class: "error", id: "waiting-error" });
  const post = (what, body) => api(`/api/rooms/${room.code}/${what}`, { token, ...body });
  const seats = el("ul", { class: "seats", id: "waiting-seats" }, ...room.seats.map((s, i) => {
    const li = el("li", { "data-seat": String(i) }, s.name || "—", s.bot ? " (bot)" : "", room.owner === i ? ` (${t("owner")})` : "");
    if (owner && i !== seat && s.name && !s.bot) {
      li.append(" ", el("button", { class: "kick", "data-seat": String(i),
        onclick: () => post("kick", { seat: i }).catch((e) => { err.textContent = e.message; }) }, t("kick")));
    }
    return li;
  }));
  const panel = el("div", { class: "panel waiting", id: "waiting" },
    el("h2", {}, `${t("code")}: ${room.code}`, " ", ...roomTags(room)),
    el("div", {}, t("share")), el("div", { class: "sharelink", id: "share-link" }, shareLink(room.code)),
    copyButton(shareLink(room.code), "copy-share"), seats);
  if (owner) {
    panel.append(el("button", { id: "start", onclick: () => post("start", {}).catch((e) => { err.textContent = e.message; }) }, t("start")));
    const lock = el("button", { id: "lock", onclick: () => post("lock", { locked: !room.locked }).then((d) => {
      // the key is kept for this tab, so a reload still shows the invite link
      const key = d && d.invite ? d.invite : null;
      if (key) sessionStorage.setItem(`invite:${room.code}`, key); else sessionStorage.removeItem(`invite:${room.code}`);
      if (ui.onInvite) ui.onInvite(key, d && d.room ? d.room : null);
    }).catch((e) => { err.textContent = e.message; }) }, room.locked ? t("unlock") : t("lock"));
    panel.append(" ", lock);
    const key = ui.invite || sessionStorage.getItem(`invite:${room.code}`);
    if (room.locked && key) {
      const link = inviteLink(room.code, key);
      panel.append(el("div", {}, t("invite")), el("div", { class: "sharelink", id: "invite-link" }, link), copyButton(link, "copy-invite"));
    }
  } else panel.append(el("div", { class: "muted", id: "wait-owner" }, t("waitOwner")));
  panel.append(err);
  return panel;
}
