// The lobby's ranked part: the operator's lobbies (GET /api/lobbies) with a queue button each,
// the wait while queued (GET /api/queue, polled each second: the entry's heartbeat, without
// which the server drops it after 30 s), and once seated straight to the table, played
// over /ws/play with the queue's seat token exactly as a casual seat is.

import { t, presetName } from "./i18n.js";
import "./tournament_words.js";
import { el } from "./dom.js";
import { me, call, errorText } from "./account.js";

/** m:ss of a wait in milliseconds. */
export function waitClock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Keep a ranked (or tournament) seat's token as a casual seat's is kept (lobby.js takeSeat),
 * then go to it. */
export function sit(status) {
  localStorage.setItem(`seat:${status.game}`, status.token);
  localStorage.setItem(`code:${status.game}`, status.code);
  if (status.node) localStorage.setItem(`node:${status.game}`, status.node);
  else localStorage.removeItem(`node:${status.game}`);
  location.hash = `#/play/${status.game}`;
}

/** The ranked section; returns [section, stop]. Polls once a second while queued. */
export function rankedSection() {
  const list = el("ul", { class: "rooms ranked-lobbies", id: "ranked-lobbies" });
  const state = el("div", { class: "queue-state", id: "queue-state", role: "status", "aria-live": "polite" });
  const err = el("div", { class: "error", id: "queue-error", role: "alert" });
  let status = { state: "idle" }, lobbies = [], timer = null, stopped = false, wasWaiting = false;

  const act = (fn) => async () => {
    err.textContent = "";
    try { status = await fn(); } catch (e) { err.textContent = errorText(e); }
    if (status.state === "seated") { sit(status); return; }
    draw();
    if (timer) { clearTimeout(timer); timer = null; }
    schedule();
  };
  const join = (name) => act(() => call("POST", "/api/queue", { lobby: name }));
  const leave = act(() => call("DELETE", "/api/queue"));

  function draw() {
    const queued = status.state === "waiting" || status.state === "forming";
    list.replaceChildren(...lobbies.map((l) => {
      const li = el("li", { "data-lobby": l.name }, el("span", { class: "preset" }, lobbyLabel(lobbies, l.name)),
        el("span", { class: "waiting-count" }, t("inQueue").replace("{n}", String(l.waiting))),
        el("a", { href: `#/leaderboard/${encodeURIComponent(l.name)}`, class: "board-link" }, t("leaderboard")));
      if (!me()) li.append(el("a", { href: "#/account", class: "login-to-queue" }, t("loginToQueue")));
      else if (!queued && status.state !== "seated" && status.state !== "playing") {
        li.append(el("button", { type: "button", class: "queue", "data-lobby": l.name, onclick: join(l.name),
          "aria-label": `${t("queue")}: ${lobbyLabel(lobbies, l.name)}` }, t("queue")));
      }
      return li;
    }));
    if (status.state === "waiting") {
      const since = el("span", { class: "wait-clock", id: "wait-clock" }, waitClock(Date.now() - status.since));
      state.replaceChildren(el("span", "", `${t("queued")} · `), since,
        el("span", "", ` · ${t("inQueue").replace("{n}", String(status.waiting))} `),
        el("button", { type: "button", id: "leave-queue", onclick: leave }, t("leaveQueue")));
    } else if (status.state === "forming") state.replaceChildren(t("forming"));
    else if (status.state === "playing") {
      // a seat given before the server restarted: its token is only in the browser it went to
      const held = localStorage.getItem(`seat:${status.game}`);
      state.replaceChildren(`${t("seatedRanked")} `, held ? el("a", { href: `#/play/${status.game}`, id: "ranked-seat", class: "back-to-seat" }, t("backToSeat")) : "");
    }
    else if (status.state === "seated") {
      state.replaceChildren(`${t("seatedRanked")} `, el("a", { href: `#/play/${status.game}`, id: "ranked-seat", class: "back-to-seat",
        onclick: (e) => { e.preventDefault(); sit(status); } }, t("backToSeat")));
    } else state.replaceChildren();
  }

  async function poll() {
    timer = null;
    if (stopped) return;
    try {
      const [s, l] = await Promise.all([me() ? call("GET", "/api/queue") : Promise.resolve({ state: "idle" }),
        call("GET", "/api/lobbies")]);
      if (stopped) return;
      status = s; lobbies = l.lobbies;
      // seated while this page waited: straight to the table (a seat found on load is a link)
      if (status.state === "seated" && wasWaiting) { sit(status); return; }
      wasWaiting = status.state === "waiting" || status.state === "forming";
      draw();
    } catch (e) { err.textContent = errorText(e); }
    schedule();
  }
  function schedule() {
    if (stopped || timer) return;
    const waiting = status.state === "waiting" || status.state === "forming";
    wasWaiting = wasWaiting || waiting;
    timer = setTimeout(poll, waiting ? 1000 : 5000);
  }
  // each GET /api/queue is the entry's heartbeat (the server drops one not asked about for
  // 30 s): a tab the browser throttled while hidden asks again as soon as it is shown
  const shown = () => {
    if (document.visibilityState !== "visible" || stopped) return;
    if (timer) { clearTimeout(timer); timer = null; }
    poll();
  };
  document.addEventListener("visibilitychange", shown);
  // the wait's clock moves every second between polls
  const tick = setInterval(() => {
    const c = document.getElementById("wait-clock");
    if (c && status.state === "waiting") c.textContent = waitClock(Date.now() - status.since);
  }, 1000);
  poll();
  const section = el("section", { id: "ranked", "aria-labelledby": "ranked-title" },
    el("h2", { id: "ranked-title" }, t("ranked")), list, state, err,
    el("p", "tournaments-line", el("a", { href: "#/tournaments", id: "lobby-tournaments" }, t("tournaments"))));
  return [section, () => {
    stopped = true; if (timer) clearTimeout(timer); clearInterval(tick);
    document.removeEventListener("visibilitychange", shown);
  }];
}

/** The operator's lobbies (GET /api/lobbies), asked once per page view; [] when unreachable. */
export async function lobbyList() {
  try { return (await call("GET", "/api/lobbies")).lobbies; } catch { return []; }
}

/** What a person reads for a lobby: its preset's name (with the lobby's own when two lobbies
 * play one preset), the lobby's name alone when it is not configured any more. */
export function lobbyLabel(lobbies, name) {
  const l = lobbies.find((x) => x.name === name);
  if (!l) return name;
  return lobbies.filter((x) => x.preset === l.preset).length > 1 ? `${presetName(l.preset)} · ${name}` : presetName(l.preset);
}
