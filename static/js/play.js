// The table page: a seat's game (play) or a spectator's god view (watch), live over WebSocket.
// It applies the server's events to the model, draws it, and answers inquiries the player makes.

import { newTable, apply } from "./model.js";
import { fromEngine } from "./events.js";
import { renderBoard, renderHand } from "./table.js";
import { resultPanel, finalPanel } from "./result.js";
import { playable, actionsEl, autoAnswer, sameFace } from "./decide.js";
import { showTip, hideTip, statusEl } from "./help.js";
import { Connection, wsUrl } from "./net.js";
import { play as sound } from "./sound.js";
import { prefs, toggles } from "./options.js";
import { t } from "./i18n.js";
import { waitingPanel, roomTags } from "./lobby.js";
import { verifySeed, shortHex } from "./fair.js";
import { announce } from "./announce.js";

const div = (cls) => { const e = document.createElement("div"); e.className = cls; return e; };
export function tablePage(root, header, { mode, game }) {
  const watching = mode === "watch";
  const token = watching ? null : localStorage.getItem(`seat:${game}`);
  const st = { tb: newTable(4, null), seat: null, room: null, lastSeq: -1, inq: null, inqAt: 0, bank: null,
    riichi: false, choosing: null, selected: null, waits: [], overlay: null, answeredNext: false, bottom: 0,
    ended: false, seed: null, fair: null, invite: null, live: false };
  const conn = div("conn connecting");
  conn.id = "conn";
  conn.textContent = t("connecting");
  const spacer = header.querySelector(".spacer");
  header.insertBefore(conn, spacer);
  // the room's labels (practice, broadcast, locked) and the shuffle commitment, then its check
  const tags = document.createElement("span");
  tags.id = "room-tags"; tags.className = "tags";
  const fair = document.createElement("span");
  fair.id = "fair"; fair.className = "fair";
  header.insertBefore(tags, spacer);
  header.insertBefore(fair, spacer);
  const banner = div("banner hidden");
  banner.id = "banner";
  if (!watching) header.insertBefore(toggles(() => maybeAuto()), spacer);
  else {
    // a spectator chooses whose seat sits at the bottom; every hand stays open
    const label = document.createElement("label");
    const view = document.createElement("select");
    view.id = "watch-view";
    view.addEventListener("change", () => { st.bottom = Number(view.value); draw(); });
    label.append(`${t("spectating")} · ${t("viewpoint")} `, view);
    header.insertBefore(label, spacer);
  }
  function viewOptions() {
    const view = header.querySelector("#watch-view");
    if (!view || !st.room) return;
    view.replaceChildren(...st.room.seats.map((s, i) => {
      const o = document.createElement("option");
      o.value = String(i); o.textContent = s.name || String(i);
      return o;
    }));
    view.value = String(st.bottom);
  }
  const boardBox = div("boardbox"), below = div("below"), wrap = div("tablewrap");
  wrap.append(boardBox, below);
  root.replaceChildren(banner, wrap);
  const clock = div("clock");
  clock.id = "clock";

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
  async function checkSeed(seed) {
    if (seed === null || seed === undefined || !st.room || !st.room.commitment || st.seed === seed) return;
    st.seed = seed;
    st.fair = await verifySeed(seed, st.room.commitment);
    drawRoom();
    if (st.fair === "mismatch") console.warn("shuffle commitment mismatch", seed, st.room.commitment);
  }
  function reset(n) {
    st.tb = newTable(n, st.seat);
    names();
  }
  function applyEngine(ev) {
    for (const e of fromEngine(ev, st.tb)) {
      apply(st.tb, e);
      if (e.t === "round") { st.overlay = null; st.waits = []; st.answeredNext = false; st.ackPending = false; }
      if (e.t === "result") st.overlay = { result: e };
      // the last hand's result stays up; the standings wait behind it (its button opens them)
      if (e.t === "end") st.overlay = st.overlay && st.overlay.result ? { ...st.overlay, final: e } : { final: e };
      if (st.live) announce(wrap, st.tb, st.bottom, e);
      // the next drawing slides this discard or meld in (once: later redraws keep it still)
      if (st.live && (e.t === "discard" || e.t === "call")) st.fresh = { t: e.t, seat: e.seat };
      if (e.t === "discard") sound("discard");
      if (e.t === "call") sound("call");
      if (e.t === "riichi" && !e.accepted) sound("riichi");
      if (e.t === "result" && e.kind === "win") sound("win");
      if (e.t === "call" && e.seat === st.seat) st.waits = [];
    }
  }

  function answer(action, option) {
    if (!st.inq) return;
    const a = st.inq.actions[action];
    if (a.type === "discard" || a.type === "riichi") st.waits = a.options[option].tenpai || [];
    if (a.type === "next_round") st.answeredNext = true;
    if (net) net.send({ type: "answer", inquiry: st.inq.id, action, option });
    st.inq = null; st.riichi = false; st.choosing = null; st.selected = null;
    hideTip();
    draw();
  }

  function maybeAuto() {
    if (!st.inq || watching) return;
    const p = st.tb.players[st.seat];
    const a = autoAnswer(st.inq, prefs(), st.tb, st.seat, p ? p.drawn : null);
    if (a) setTimeout(() => answer(a[0], a[1]), 150);
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
      case "snapshot":
        // on (re)connect, and for a spectator also at a hand's end (that hand's god view):
        // the table is drawn from nothing, without announcing what is already past
        reset(st.room ? st.room.seats.length : 4);
        st.live = false;
        (m.events || []).forEach(applyEngine);
        st.live = true;
        if (typeof m.seq === "number") st.lastSeq = m.seq - 1;
        setInquiry(m.inquiry);
        break;
      case "event":
        if (m.seq <= st.lastSeq) return;
        st.lastSeq = m.seq;
        // an open inquiry is settled by the next event (someone else's call may come first)
        if (st.inq && !st.inq.actions.some((a) => a.type === "next_round")) {
          st.inq = null; st.riichi = false; st.choosing = null; hideTip();
        }
        applyEngine(m.event);
        break;
      case "inquiry": setInquiry(m); break;
      case "answered": if (st.inq && st.inq.id === m.inquiry) { st.inq = null; st.riichi = false; st.choosing = null; } break;
      case "clock": st.bank = m.bank_ms; break;
      case "end":
        st.ended = true;
        if (net) net.finish(); // the server closes after this: no reconnecting to a finished game
        if (!st.overlay) st.overlay = { final: st.tb.final || {} };
        else if (!st.overlay.final) st.overlay.final = st.tb.final || {};
        checkSeed(m.seed);
        break;
      default: return;
    }
    draw();
  }

  function setInquiry(inq) {
    st.inq = inq || null; st.inqAt = performance.now(); st.riichi = false; st.choosing = null; st.selected = null;
    if (inq) { st.bank = inq.bank_ms; if (inq.actions.some((a) => a.type === "discard")) sound("turn"); }
    const next = inq ? inq.actions.findIndex((a) => a.type === "next_round") : -1;
    if (next >= 0 && st.ackPending) {
      // the player closed the result before the server asked: that click was the answer
      st.ackPending = false;
      answer(next, 0);
      return;
    }
    maybeAuto();
  }

  function clockText() {
    if (!st.inq) { clock.textContent = st.bank !== null ? `${t("clock").split(" ")[0]} ${Math.round(st.bank / 1000)}` : ""; return; }
    const el = performance.now() - st.inqAt;
    const base = Math.max(0, st.inq.base_ms - el), bank = Math.max(0, st.inq.bank_ms - Math.max(0, el - st.inq.base_ms));
    clock.innerHTML = `<span class="base">${Math.ceil(base / 1000)}</span> + <span class="bank">${Math.ceil(bank / 1000)}</span>`;
    clock.classList.toggle("low", base === 0);
  }
  const tick = setInterval(clockText, 250);

  function draw() {
    const tb = st.tb;
    clockText();
    renderBoard(boardBox, tb, { bottom: st.bottom, showAll: watching, fresh: st.fresh });
    st.fresh = null;
    const inq = st.inq && !st.inq.actions.every((a) => a.type === "next_round") ? st.inq : null;
    const me = tb.players[st.bottom];
    const can = sameFace(playable(inq, st.riichi), [...me.hand, me.drawn], tb.red);
    const hand = div("handbox");
    renderHand(hand, tb, st.bottom, { show: true, playable: watching ? null : can, selected: st.selected });
    hand.querySelectorAll(".tile.can").forEach((e) => hookTile(e, can));
    const acts = watching ? div("actions") : actionsEl({ inq, riichiMode: st.riichi, choosing: st.choosing, answer,
      setRiichi: (v) => { st.riichi = v; st.selected = null; draw(); }, choose: (i) => { st.choosing = i; draw(); } });
    const status = statusEl(tb, st.seat, st.waits);
    if (!watching) status.prepend(clock);
    below.replaceChildren(status, acts, hand);
    drawOverlay();
  }

  function drawOverlay() {
    wrap.querySelectorAll(".overlay").forEach((o) => o.remove());
    if (!watching && st.room && st.room.status === "waiting") {
      const w = div("overlay");
      w.append(waitingPanel(st.room, token, st.seat, { invite: st.invite, onInvite: (k, room) => { st.invite = k; if (room) st.room = room; draw(); } }));
      wrap.append(w);
      return;
    }
    if (!st.overlay) return;
    const o = div("overlay");
    o.id = "overlay";
    if (st.overlay.final && !st.overlay.result) o.append(finalPanel(st.tb, st.overlay.final, game));
    else if (st.overlay.final) {
      // the match's last hand: its result first, then the standings on request
      const panel = resultPanel(st.tb, st.overlay.result, () => { st.overlay = { final: st.overlay.final }; draw(); }, t("showFinal"));
      panel.querySelector(".ok").id = "show-final";
      o.append(panel);
    } else {
      const next = st.inq && st.inq.actions.findIndex((a) => a.type === "next_round");
      const ok = watching ? null : () => {
        if (st.inq && next >= 0) answer(next, 0);
        else if (!st.answeredNext) { st.ackPending = true; st.overlay = null; draw(); }
      };
      const panel = resultPanel(st.tb, st.overlay.result, ok);
      if (st.answeredNext) panel.querySelector("#result-ok")?.setAttribute("disabled", "");
      o.append(panel);
    }
    wrap.append(o);
  }

  function hookTile(e, can) {
    const id = Number(e.dataset.tile), info = can.get(id);
    let timer = null, touched = false;
    e.addEventListener("mouseenter", () => showTip(e, info.tenpai));
    e.addEventListener("mouseleave", hideTip);
    e.addEventListener("touchstart", () => { touched = true; timer = setTimeout(() => showTip(e, info.tenpai), 450); }, { passive: true });
    e.addEventListener("touchend", () => clearTimeout(timer));
    e.addEventListener("click", () => {
      // touch: the first tap lifts the tile and shows its waits, the second discards it
      if (touched && st.selected !== id) { st.selected = id; draw(); showTip(boardBox.ownerDocument.querySelector(`.own .tile[data-tile="${id}"]`), info.tenpai); return; }
      answer(info.action, info.option);
    });
  }

  function onKey(e) {
    if (watching || !st.inq || e.target.tagName === "INPUT") return;
    const me = st.tb.players[st.bottom];
    const can = sameFace(playable(st.inq, st.riichi), [...me.hand, me.drawn], st.tb.red);
    const ids = [...can.keys()];
    const order = [...document.querySelectorAll(".own .tile.can")].map((x) => Number(x.dataset.tile)).filter((x) => ids.includes(x));
    if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && order.length) {
      const i = order.indexOf(st.selected);
      st.selected = order[(i + (e.key === "ArrowRight" ? 1 : order.length - 1) + (i < 0 ? 1 : 0)) % order.length];
      draw();
      const sel = document.querySelector(`.own .tile[data-tile="${st.selected}"]`);
      if (sel) showTip(sel, can.get(st.selected).tenpai);
    } else if ((e.key === "Enter" || e.key === " ") && st.selected !== null && ids.includes(st.selected)) {
      e.preventDefault();
      const info = can.get(st.selected);
      answer(info.action, info.option);
    } else if (e.key === "Escape") {
      const s = st.inq.actions.findIndex((a) => a.type === "skip");
      if (st.choosing !== null || st.riichi) { st.choosing = null; st.riichi = false; draw(); } else if (s >= 0) answer(s, 0);
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
      if (s === "kicked") { localStorage.removeItem(`seat:${game}`); st.room = null; draw(); }
    }
    else if (s === "online") banner.className = "banner hidden";
  }
  const view = { st, net: null };
  window.__table = view; // for tests and debugging: read-only use
  let net = null;
  // the seat's token goes in the first frame, never in the URL (LEGACY fallbackUrl: a server
  // from before the hello frame refuses that with 4001 at once and gets ?token= instead)
  net = new Connection(wsUrl(watching ? `/ws/watch/${game}` : "/ws/play"), { onMessage, onState: setConn,
    hello: watching ? null : { type: "hello", token: token || "" },
    fallbackUrl: watching ? null : wsUrl(`/ws/play?token=${encodeURIComponent(token || "")}`) });
  view.net = net;
  st.live = true;
  draw();
  return () => { if (net) net.close(); clearInterval(tick); document.removeEventListener("keydown", onKey); hideTip(); };
}
