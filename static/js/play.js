// The table page: a seat's game (play) or a spectator's god view (watch), live over WebSocket.
// It applies the server's events to the model, dispatches what happens to the interaction
// reducer (interaction.js: the inquiry/acknowledge protocol), draws both and sends the answers.

import { newTable, apply } from "./model.js";
import { fromEngine } from "./events.js";
import { renderBoard, renderHand, highlightKind, hoverMatches } from "./table.js";
import { resultPanel, finalPanel } from "./result.js";
import { playable, actionsEl, autoAnswer, sameFace, leftOut, defaultAnswer } from "./decide.js";
import { showTip, hideTip, statusEl } from "./help.js";
import { seenCounts } from "./unseen.js";
import { Connection, wsUrl } from "./net.js";
import { play as sound } from "./sound.js";
import { prefs, toggles, muteButton } from "./options.js";
import { leaveButton } from "./leave.js";
import { t } from "./i18n.js";
import { waitingPanel, roomTags, seatNode, gameWinds } from "./lobby.js";
import { scoreHistory } from "./graph.js";
import { verifySeed, shortHex } from "./fair.js";
import { announce } from "./announce.js";
import { initial, reduce, asking, timeLeft } from "./interaction.js";
import { el } from "./dom.js";
import { adviceControls, adviceMap, alwaysHint, markAdvice, worthAdvice } from "./advice.js";

export function tablePage(root, header, { mode, game }) {
  const watching = mode === "watch";
  const token = watching ? null : localStorage.getItem(`seat:${game}`);
  // st: the table and the connection; ui: the seat's interaction, changed only by dispatch
  const st = { tb: newTable(4, null), seat: null, room: null, lastSeq: -1, bottom: 0, seed: null, fair: null,
    invite: null, live: false };
  let ui = initial();
  const conn = el("div", { class: "conn connecting", id: "conn" }, t("connecting"));
  const spacer = header.querySelector(".spacer");
  header.insertBefore(conn, spacer);
  // the room's labels (practice, broadcast, locked) and the shuffle commitment, then its check
  const tags = el("span", { id: "room-tags", class: "tags" });
  const fair = el("span", { id: "fair", class: "fair" });
  header.insertBefore(tags, spacer);
  header.insertBefore(fair, spacer);
  const banner = el("div", { class: "banner hidden", id: "banner" });
  const mute = muteButton(() => draw());
  header.insertBefore(mute, spacer);
  // leaving: back to the lobby; the seat plays by the defaults while away (leave.js). The open
  // question is answered first as its time-out would, so the table need not wait for it.
  const leave = watching ? null : leaveButton(() => {
    const a = defaultAnswer(ui.inq);
    if (a) answer(a[0], a[1]);
    location.hash = "#/";
  });
  if (!watching) {
    header.insertBefore(toggles(() => { mute.sync(); draw(); maybeAuto(); }), spacer);
    header.insertBefore(leave, spacer);
  } else {
    // a spectator chooses whose seat sits at the bottom; every hand stays open
    const view = el("select", { id: "watch-view", onchange: () => { st.bottom = Number(view.value); draw(); } });
    header.insertBefore(el("label", null, `${t("spectating")} · ${t("viewpoint")} `, view), spacer);
  }
  function viewOptions() {
    const view = header.querySelector("#watch-view");
    if (!view || !st.room) return;
    view.replaceChildren(...st.room.seats.map((s, i) => el("option", { value: String(i) }, s.name || String(i))));
    view.value = String(st.bottom);
  }
  const boardBox = el("div", "boardbox"), below = el("div", "below"), wrap = el("div", "tablewrap", boardBox, below);
  root.replaceChildren(banner, wrap);
  hoverMatches(wrap, () => (ui.selected !== null && ui.selected >= 0 ? ui.selected >> 2 : null));
  const clock = el("div", { class: "clock", id: "clock" });

  function names() {
    if (st.room) st.tb.names = st.room.seats.map((s) => s.name || (s.bot ? "bot" : ""));
  }
  function drawRoom() {
    if (!st.room) return;
    tags.replaceChildren(...roomTags(st.room));
    const c = st.room.commitment;
    fair.className = `fair ${st.fair || ""}`.trim();
    if (!c) { fair.textContent = ""; return; }
    fair.title = c;
    const word = st.fair === "verified" ? `✓ ${t("verified")}` : st.fair === "mismatch" ? `⚠ ${t("mismatch")}`
      : st.fair === "unavailable" ? t("cannotVerify") : "";
    fair.textContent = `${t("shuffle")} ${shortHex(c)}${word ? ` · ${word}` : ""}`;
  }
  async function checkSeed(seed, salt) {
    if (seed === null || seed === undefined || !st.room || !st.room.commitment || st.seed === seed) return;
    st.seed = seed;
    st.fair = await verifySeed(seed, st.room.commitment, salt || "");
    drawRoom();
    if (st.fair === "mismatch") console.warn("shuffle commitment mismatch", seed, st.room.commitment);
  }
  function reset(n) {
    st.tb = newTable(n, st.seat, st.room && st.room.rules);
    names();
  }
  /** Apply one server event to the table (with its sounds and calls); its model events. */
  function applyEngine(ev) {
    const events = fromEngine(ev, st.tb);
    for (const e of events) {
      apply(st.tb, e);
      if (st.live) announce(wrap, st.tb, st.bottom, e);
      // the next drawing slides this discard or meld in (once: later redraws keep it still)
      if (st.live && (e.t === "discard" || e.t === "call")) st.fresh = { t: e.t, seat: e.seat };
      // sounds for what happens now, never for a snapshot's past
      if (!st.live) continue;
      if (e.t === "discard") sound("discard");
      if (e.t === "call") sound("call");
      if (e.t === "riichi" && !e.accepted) sound("riichi");
      if (e.t === "result" && e.kind === "win") sound("win");
    }
    return events;
  }

  /** The reducer's next state; the answer it owes goes out here, once. True when it changed. */
  function dispatch(action) {
    const before = ui;
    ui = reduce(ui, action);
    if (ui.out) { if (net) net.send(ui.out); hideTip(); }
    return ui !== before;
  }

  function answer(action, option) {
    if (dispatch({ type: "answer", action, option })) draw();
  }

  function maybeAuto() {
    if (!ui.inq || watching) return;
    const p = st.tb.players[st.seat];
    const a = autoAnswer(ui.inq, prefs(), st.tb, st.seat, p ? p.drawn : null);
    if (a) setTimeout(() => answer(a[0], a[1]), 150);
  }

  function onInquiry(action) {
    dispatch(action);
    if (ui.inq && ui.inq.actions.some((a) => a.type === "discard")) sound("turn");
    if (alwaysHint()) askAdvice();
    maybeAuto();
  }

  // advice at a practice table (advice.js): asked once per decision, shown while it is open
  const advises = () => !watching && !!st.room && !!st.room.advice && worthAdvice(asking(ui));
  function askAdvice() {
    if (!advises() || !net || st.adviceAsked === ui.inq.id) return;
    st.adviceAsked = ui.inq.id;
    net.send({ type: "advice", inquiry: ui.inq.id });
  }

  function onMessage(m) {
    switch (m.type) {
      case "welcome":
        st.room = m.room; st.seat = m.seat;
        if (!watching || st.bottom >= m.room.seats.length) st.bottom = m.seat ?? 0;
        reset(m.room.seats.length);
        viewOptions();
        drawRoom();
        break;
      case "room": st.room = m.room; names(); drawRoom(); break;
      case "snapshot": {
        // on (re)connect, and for a spectator also at a hand's end (that hand's god view):
        // the table is drawn from nothing, without announcing what is already past
        reset(st.room ? st.room.seats.length : 4);
        st.live = false;
        const events = (m.events || []).flatMap(applyEngine);
        st.live = true;
        if (typeof m.seq === "number") st.lastSeq = m.seq - 1;
        onInquiry({ type: "snapshot", events, inquiry: m.inquiry, now: performance.now(), seat: st.seat });
        break;
      }
      case "event": {
        if (m.seq <= st.lastSeq) return;
        st.lastSeq = m.seq;
        const open = ui.inq;
        dispatch({ type: "event", events: applyEngine(m.event), seat: st.seat });
        if (open && !ui.inq) hideTip(); // settled by this event
        break;
      }
      case "inquiry": onInquiry({ type: "inquiry", inq: m, now: performance.now() }); break;
      case "answered": dispatch({ type: "answered", inquiry: m.inquiry }); break;
      case "clock": dispatch({ type: "clock", bank: m.bank_ms }); break;
      case "advice": st.advice = { inquiry: m.inquiry, map: adviceMap(m.options || []) }; break;
      case "end":
        dispatch({ type: "end", final: st.tb.final || {} });
        if (net) net.finish(); // the server closes after this: no reconnecting to a finished game
        checkSeed(m.seed_text ?? m.seed, m.salt); // text: a 128-bit seed (net.parseMessage)
        loadMatch();
        break;
      default: return;
    }
    draw();
  }

  /** The finished match's history for the standings (the stored game's replay, once it is
   * stored: a moment after the end) and its preset's winds; drawn again when they come. */
  async function loadMatch() {
    if (st.match) return;
    for (let i = 0; i < 10 && !st.match; i++) {
      const r = await fetch(`/api/games/${game}/replay`).catch(() => null);
      if (r && r.ok) st.match = { history: scoreHistory((await r.json()).events), winds: await gameWinds(game) };
      else await new Promise((ok) => setTimeout(ok, 500));
    }
    if (st.match) draw();
  }

  function clockText() {
    if (!ui.inq) { clock.textContent = ui.bank !== null ? `${t("clock").split(" ")[0]} ${Math.round(ui.bank / 1000)}` : ""; return; }
    const { base, bank } = timeLeft(ui, performance.now());
    clock.replaceChildren(el("span", "base", String(Math.ceil(base / 1000))), " + ", el("span", "bank", String(Math.ceil(bank / 1000))));
    clock.classList.toggle("low", base === 0);
  }
  const tick = setInterval(clockText, 250);

  function draw() {
    const tb = st.tb;
    clockText();
    renderBoard(boardBox, tb, { bottom: st.bottom, showAll: watching, fresh: st.fresh });
    st.fresh = null;
    const inq = asking(ui);
    const me = tb.players[st.bottom];
    const can = sameFace(playable(inq, ui.riichi), [...me.hand, me.drawn], tb.red);
    const hand = el("div", "handbox");
    renderHand(hand, tb, st.bottom, { show: true, playable: watching ? null : can, selected: ui.selected });
    hand.querySelectorAll(".tile.can").forEach((e) => hookTile(e, can));
    const acts = watching ? el("div", "actions") : actionsEl({ inq, riichiMode: ui.riichi, choosing: ui.choosing, answer, red: tb.red, hide: leftOut(prefs()),
      setRiichi: (on) => { dispatch({ type: "riichi", on }); draw(); }, choose: (index) => { dispatch({ type: "choose", index }); draw(); } });
    const status = statusEl(tb, st.seat, ui.waits);
    if (!watching) status.prepend(clock);
    const shown = inq && st.advice && st.advice.inquiry === inq.id ? st.advice.map : null;
    markAdvice(shown, { hand, can, actions: acts, inq, choosing: ui.choosing });
    const hints = !watching && st.room && st.room.advice
      ? [adviceControls({ ask: () => { askAdvice(); draw(); }, canAsk: advises() && !shown && st.adviceAsked !== inq.id,
        onAlways: (on) => { if (on) askAdvice(); draw(); } })] : [];
    below.replaceChildren(status, ...hints, acts, hand);
    // the selected tile's kind stays lit across the table (a hover lights it too: hoverMatches)
    if (ui.selected !== null && ui.selected >= 0) highlightKind(wrap, ui.selected >> 2);
    drawOverlay();
  }

  function drawOverlay() {
    wrap.querySelectorAll(".overlay").forEach((o) => o.remove());
    if (!watching && st.room && st.room.status === "waiting") {
      const invited = (k, room) => { st.invite = k; if (room) st.room = room; draw(); };
      wrap.append(el("div", "overlay", waitingPanel(st.room, token, st.seat, { invite: st.invite, onInvite: invited })));
      return;
    }
    const shown = ui.overlay;
    if (!shown) return;
    const o = el("div", { class: "overlay", id: "overlay" });
    if (shown.final && !shown.result) o.append(finalPanel(st.tb, shown.final, game, st.match));
    else if (shown.final) {
      // the match's last hand: its result first, then the standings on request
      const panel = resultPanel(st.tb, shown.result, () => { dispatch({ type: "showFinal" }); draw(); }, t("showFinal"), shown.final);
      panel.querySelector(".ok").id = "show-final";
      o.append(panel);
    } else {
      // the result's button acknowledges it: interaction.js says what that answers
      const ok = watching ? null : () => { if (dispatch({ type: "ack" })) draw(); };
      const panel = resultPanel(st.tb, shown.result, ok);
      if (ui.answeredNext) panel.querySelector("#result-ok")?.setAttribute("disabled", "");
      o.append(panel);
    }
    wrap.append(o);
    // the keyboard lands on the panel's button (Enter goes on), unless it is elsewhere on purpose
    const ok = o.querySelector("#result-ok:not([disabled]), #show-final, #final a");
    if (ok && (!document.activeElement || document.activeElement === document.body)) ok.focus({ preventScroll: true });
  }

  /** What this seat has seen of each kind (for the waits' unseen copies). */
  const seen = () => seenCounts(st.tb, st.bottom);

  function hookTile(e, can) {
    const id = Number(e.dataset.tile), info = can.get(id);
    let timer = null, touched = false;
    e.addEventListener("mouseenter", () => showTip(e, info.tenpai, seen()));
    e.addEventListener("mouseleave", hideTip);
    e.addEventListener("touchstart", () => { touched = true; timer = setTimeout(() => showTip(e, info.tenpai, seen()), 450); }, { passive: true });
    e.addEventListener("touchend", () => clearTimeout(timer));
    e.addEventListener("click", () => {
      // touch: the first tap lifts the tile and shows its waits, the second discards it
      if (touched && ui.selected !== id) { dispatch({ type: "select", tile: id }); draw(); showTip(boardBox.ownerDocument.querySelector(`.own .tile[data-tile="${id}"]`), info.tenpai, seen()); return; }
      answer(info.action, info.option);
    });
  }

  function onKey(e) {
    if (watching || !ui.inq || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (document.querySelector(".overlay.modal")) return; // a dialog (help, leave) has the keys
    // a focused control (a button, a link, the menu) takes its own Enter and Space
    if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest("button, a, summary, .choice")) return;
    const me = st.tb.players[st.bottom];
    const can = sameFace(playable(ui.inq, ui.riichi), [...me.hand, me.drawn], st.tb.red);
    const ids = [...can.keys()];
    const order = [...document.querySelectorAll(".own .tile.can")].map((x) => Number(x.dataset.tile)).filter((x) => ids.includes(x));
    if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && order.length) {
      // from nothing, → picks the leftmost tile and ← the rightmost (issue 36, item 4)
      const i = order.indexOf(ui.selected), right = e.key === "ArrowRight";
      const at = i < 0 ? (right ? 0 : order.length - 1) : (i + (right ? 1 : order.length - 1)) % order.length;
      dispatch({ type: "select", tile: order[at] });
      draw();
      const sel = document.querySelector(`.own .tile[data-tile="${ui.selected}"]`);
      if (sel) showTip(sel, can.get(ui.selected).tenpai, seen());
    } else if ((e.key === "Enter" || e.key === " ") && e.target.matches && e.target.matches(".own .tile.can")) {
      // a tile reached with Tab is discarded by Enter or Space, as a button would be
      e.preventDefault();
      const info = can.get(Number(e.target.dataset.tile));
      if (info) answer(info.action, info.option);
    } else if ((e.key === "Enter" || e.key === " ") && ui.selected !== null && ids.includes(ui.selected)) {
      e.preventDefault();
      const info = can.get(ui.selected);
      answer(info.action, info.option);
    } else if (e.key === "Escape") {
      // leaves riichi or a tile choice, else skips (interaction.js)
      if (dispatch({ type: "escape" })) draw();
    } else if (/^[1-9]$/.test(e.key)) {
      const b = [...document.querySelectorAll("#actions button")].filter((x) => x.dataset.type !== "skip" && x.dataset.type !== "cancel")[Number(e.key) - 1];
      if (b) b.click();
    }
  }
  document.addEventListener("keydown", onKey);

  const STOPPED = ["kicked", "badtoken", "replaced", "refused"];
  function setConn(s) {
    conn.className = `conn ${s}`;
    conn.textContent = t(s === "online" ? "online" : s === "connecting" ? "connecting" : s === "ended" ? "ended"
      : s === "restarting" ? "restarting" : STOPPED.includes(s) ? s : "offline");
    if (s === "closed") conn.textContent = s;
    // a restart is announced on the page itself; it clears once the socket is back
    if (s === "restarting") { banner.textContent = t("restarting"); banner.className = "banner restarting"; }
    else if (STOPPED.includes(s)) {
      banner.textContent = t(s); banner.className = `banner stop ${s}`;
      // removed from the room: the token names no seat any more, so forget it
      if (s === "kicked") {
        localStorage.removeItem(`seat:${game}`); localStorage.removeItem(`node:${game}`); st.room = null; draw();
      }
    }
    else if (s === "online") banner.className = "banner hidden";
    if (leave) leave.hidden = s === "ended";
  }
  let net = null;
  // for tests and debugging, read-only: st with the interaction's fields, as one object
  const view = { get st() { return { ...st, ...ui }; }, get ui() { return ui; }, net: null };
  window.__table = view;
  // the seat's token goes in the first frame, never in the URL (LEGACY fallbackUrl: a server
  // from before the hello frame refuses that with 4001 at once and gets ?token= instead).
  // A seat plays on the node that runs its room (a cluster's room.node, kept by takeSeat);
  // a spectator watches on this page's own node, which relays any node's game.
  // A node of a cluster is never from before the hello frame: no fallback, no token in a URL.
  const url = watching ? wsUrl(`/ws/watch/${game}`) : wsUrl("/ws/play", seatNode(game));
  const legacy = !watching && url === wsUrl("/ws/play");
  net = new Connection(url, { onMessage, onState: setConn,
    hello: watching ? null : { type: "hello", token: token || "", batch: true },
    fallbackUrl: legacy ? wsUrl(`/ws/play?token=${encodeURIComponent(token || "")}`) : null });
  view.net = net;
  st.live = true;
  draw();
  return () => { if (net) net.close(); clearInterval(tick); document.removeEventListener("keydown", onKey); hideTip(); };
}
