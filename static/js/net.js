// One WebSocket that reconnects by itself and reports its state.
// The server sends a snapshot on every (re)connect, so nothing needs replaying here.
// A seat's token never goes into the URL: it is the first frame, {"type": "hello", "token"};
// with "batch": true in it the server may send several messages in one frame, one per line.

import { CLOSE } from "./close_codes.js";

/** Waits before each reconnect attempt (ms): 0.5, 1, 2, 4, 8 s, then every 10 s. */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];

/** Close codes after which retrying cannot help: the state the page then shows. */
export const FINAL_CLOSE = Object.freeze({
  [CLOSE.BAD_TOKEN]: "badtoken", [CLOSE.REPLACED]: "replaced", [CLOSE.REFUSED]: "refused", [CLOSE.KICKED]: "kicked",
});
/** The server is restarting: reconnect with backoff and say so. */
export const CLOSE_RESTART = CLOSE.RESTARTING;

/** A server message from its text. The game's seed (in `end`) is 63 bits, beyond what a JS
 * number holds exactly, so it is kept as the decimal text it was sent as. */
export function parseMessage(text) {
  const msg = JSON.parse(text);
  if (msg && msg.type === "end" && msg.seed !== null && msg.seed !== undefined) {
    const m = /"seed"\s*:\s*(-?\d+)/.exec(text);
    if (m) msg.seed = m[1];
  }
  return msg;
}

export class Connection {
  /**
   * url: the socket's address (no secrets in it); hello: the first frame to send after
   * every open (a seat's token), or null for a spectator.
   * onState gets "connecting" | "online" | "offline" | "restarting" | "closed" | "ended"
   * | one of FINAL_CLOSE's values.
   * LEGACY fallbackUrl: where to go when the server refuses the hello with BAD_TOKEN (4001) before saying
   * anything else (a server from before the hello frame wants ?token=); a new server that
   * answers BAD_TOKEN does not know the token, so that token is worth nothing to anyone.
   */
  constructor(url, { onMessage, onState, hello = null, fallbackUrl = null }) {
    this.url = url; this.onMessage = onMessage; this.onState = onState; this.hello = hello;
    this.fallbackUrl = fallbackUrl; this.heard = false;
    this.ws = null; this.closed = false; this.finished = false; this.attempt = 0;
    this.timer = null; this.ping = null; this.reconnects = 0;
    this.open();
  }
  open() {
    this.onState("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      if (this.hello) ws.send(JSON.stringify(this.hello));
      this.ping = setInterval(() => this.send({ type: "ping" }), 15000);
    };
    ws.onmessage = (m) => {
      // the backoff restarts only once the server has really talked to us, so a server
      // that accepts and closes at once is not hammered every 0.5 s
      this.attempt = 0;
      // a seat that said `batch` may get several messages in one frame, one per line
      for (const text of String(m.data).split("\n")) {
        let msg;
        try { msg = parseMessage(text); } catch (err) { console.error(err); continue; }
        // online once the server has accepted us (its first word that is not a refusal)
        if (msg.type !== "error" && !this.heard) { this.heard = true; this.onState("online"); }
        try { this.onMessage(msg); } catch (err) { console.error(err); }
      }
    };
    ws.onclose = (ev) => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      const heard = this.heard;
      this.heard = false;
      if (this.closed) { this.onState("closed"); return; }
      // the match is over: the server closes the socket after `end`; reconnecting would only
      // fetch the same ending again (a spectator tab left open must not loop)
      if (this.finished) { this.onState("ended"); return; }
      if (ev.code === CLOSE.BAD_TOKEN && !heard && this.fallbackUrl) {
        this.url = this.fallbackUrl; this.fallbackUrl = null;
        this.open();
        return;
      }
      if (FINAL_CLOSE[ev.code]) { this.onState(FINAL_CLOSE[ev.code]); return; }
      this.onState(ev.code === CLOSE_RESTART ? "restarting" : "offline");
      const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.reconnects += 1;
      this.timer = setTimeout(() => this.open(), wait);
    };
  }
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(msg)); return true; }
    return false;
  }
  /** The game has ended: the next close is expected and is not followed by a reconnect. */
  finish() { this.finished = true; }
  /** Drop the socket as a network failure would (tests and the "reconnect" path). */
  drop() { if (this.ws) this.ws.close(); }
  close() { this.closed = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}

/**
 * The socket address of `path`: on the node at base URL `node` (a room's `node`: in a cluster
 * a room is played on the node that runs it, docs/scaling.md), or on the page's own host when
 * there is no node (a server on its own) or it is this page's own host. `here` is the page's
 * location.
 */
export function wsUrl(path, node = null, here = globalThis.location) {
  let base = null;
  try { base = node ? new URL(node) : null; } catch { base = null; }
  const prefix = base ? base.pathname.replace(/\/+$/, "") : "";
  if (!base || (base.protocol !== "http:" && base.protocol !== "https:") || (base.host === here.host && !prefix)) {
    return `${here.protocol === "https:" ? "wss" : "ws"}://${here.host}${path}`;
  }
  return `${base.protocol === "https:" ? "wss" : "ws"}://${base.host}${prefix}${path}`;
}
