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
import { waitingPanel } from "./lobby.js";

const div = (cls) => { const e = document.createElement("div"); e.className = cls; return e; };
export function tablePage(root, header, { mode, game }) {
  const watching = mode === "watch";
  const token = watching ? null : localStorage.getItem(`seat:${game}`);
  const st = { tb: newTable(4, null), seat: null, room: null, lastSeq: -1, inq: null, inqAt: 0, bank: null,
    riichi: false, choosing: null, selected: null, waits: [], overlay: null, answeredNext: false, bottom: 0 };
  const conn = div("conn connecting");
  conn.id = "conn";
  conn.textContent = t("connecting");
  const spacer = header.querySelector(".spacer");
  header.insertBefore(conn, spacer);
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
  root.replaceChildren(wrap);
  const clock = div("clock");
  clock.id = "clock";

  function names() {
    if (st.room) st.tb.names = st.room.seats.map((s) => s.name || (s.bot ? "bot" : ""));
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
      if (e.t === "end") st.overlay = { final: e };
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
    net.send({ type: "answer", inquiry: st.inq.id, action, option });
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
        st.room = m.room; st.seat = m.seat; st.bottom = m.seat ?? 0;
        reset(m.room.seats.length);
        viewOptions();
        break;
      case "room": st.room = m.room; names(); break;
      case "snapshot":
        reset(st.room ? st.room.seats.length : 4);
        m.events.forEach(applyEngine);
        st.lastSeq = m.seq - 1;
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
      case "end": st.ended = true; if (!st.overlay || !st.overlay.final) st.overlay = { final: st.tb.final || {} }; break;
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
    renderBoard(boardBox, tb, { bottom: st.bottom, showAll: watching });
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
      w.append(waitingPanel(st.room, token));
      wrap.append(w);
      return;
    }
    if (!st.overlay) return;
    const o = div("overlay");
    o.id = "overlay";
    if (st.overlay.final) o.append(finalPanel(st.tb, st.overlay.final, game));
    else {
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

  function setConn(s) {
    conn.className = `conn ${s}`;
    conn.textContent = t(s === "online" ? "online" : s === "connecting" ? "connecting" : "offline");
    if (s === "closed" || s === "replaced") conn.textContent = s;
  }
  const path = watching ? `/ws/watch/${game}` : `/ws/play?token=${encodeURIComponent(token || "")}`;
  const net = new Connection(wsUrl(path), { onMessage, onState: setConn });
  window.__table = { st, net }; // for tests and debugging: read-only use
  draw();
  return () => { net.close(); clearInterval(tick); document.removeEventListener("keydown", onKey); hideTip(); };
}
