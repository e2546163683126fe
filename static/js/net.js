// One WebSocket that reconnects by itself (backoff up to 5 s) and reports its state.
// The server sends a snapshot on every (re)connect, so nothing needs replaying here.

export class Connection {
  constructor(url, { onMessage, onState }) {
    this.url = url; this.onMessage = onMessage; this.onState = onState;
    this.ws = null; this.closed = false; this.delay = 250; this.timer = null; this.ping = null;
    this.open();
  }
  open() {
    this.onState("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.onState("online");
      this.ping = setInterval(() => this.send({ type: "ping" }), 15000);
    };
    ws.onmessage = (m) => { try { this.onMessage(JSON.parse(m.data)); } catch (err) { console.error(err); } };
    ws.onclose = (ev) => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      // 4001 unknown token, 4003 replaced by a newer tab, 4005 refused: retrying cannot help
      if (this.closed || [4001, 4003, 4005].includes(ev.code)) { this.onState(ev.code === 4003 ? "replaced" : "closed"); return; }
      this.onState("offline");
      this.timer = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(msg)); return true; }
    return false;
  }
  /** Drop the socket as a network failure would (tests and the "reconnect" path). */
  drop() { if (this.ws) this.ws.close(); }
  close() { this.closed = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}

export const wsUrl = (path) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
