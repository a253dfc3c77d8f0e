// One WebSocket per tab: reconnect with backoff, version tracking, a tiny event emitter.
//
// The seat token travels as the subprotocol `coven.token.{token}` (next to `coven`, which the
// server selects), never in the socket's URL, so no proxy or access log ever records it.
//
// Every ``state`` message carries the full view, so it is applied as a snapshot. The version
// still matters: an older or equal version is a duplicate and is dropped; a jump of more than
// one means we missed messages (pub/sub may drop them), so we re-sync from the HTTP snapshot
// and let the page fill the missed public events from the log.
//
// Versions are this tab's own numbering: the actions it may see (another seat's private steps
// are not counted, app/rooms/private_steps.py). `presence` carries the public version (one text
// for the whole room), compared with the `public_version` of the latest state.

import { api } from "./api.js";

const CLOSE_BAD_TOKEN = 4401;
const CLOSE_NO_ROOM = 4404;
// The worker is going away (a rolling restart, app/drain.py): come back soon, to another one.
const CLOSE_RESTART = 1012;
const PING_MS = 25000;
const SUBPROTOCOL = "coven";
const TOKEN_SAFE = /^[A-Za-z0-9_-]+$/;

export class RoomClient {
  constructor(code, token) {
    this.code = code;
    this.token = token || null;
    this.version = null;
    this.publicVersion = null;
    this.status = "idle";
    this.attempt = 0;
    this.handlers = {};
    this.socket = null;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    // The server pushes "your turn" to a seat's devices only while no tab of it is in view:
    // every socket says whether its page is (a socket that never says counts as in view).
    this.onVisibility = () => this.sendVisible();
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  sendVisible() {
    return this.send({ type: "visible", visible: document.visibilityState === "visible" });
  }

  on(type, fn) {
    (this.handlers[type] ||= []).push(fn);
    return this;
  }

  emit(type, payload) {
    for (const fn of this.handlers[type] || []) {
      try {
        fn(payload);
      } catch (err) {
        console.error(err);
      }
    }
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const url = `${proto}://${location.host}/ws/rooms/${encodeURIComponent(this.code)}`;
    const protocols = [SUBPROTOCOL];
    if (this.token && TOKEN_SAFE.test(this.token)) protocols.push(`coven.token.${this.token}`);
    // A token no server ever issued (a mangled rejoin link) is sent the old way, and refused.
    const query = this.token && !TOKEN_SAFE.test(this.token) ? `?token=${encodeURIComponent(this.token)}` : "";
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    const socket = (this.socket = new WebSocket(url + query, protocols));
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.setStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      if (document.visibilityState !== "visible") this.sendVisible();
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => this.closedBy(socket, event.code));
  }

  closedBy(socket, code) {
    if (socket !== this.socket) return;
    clearInterval(this.pinger);
    if (this.closed) return;
    if (code === CLOSE_BAD_TOKEN) {
      this.emit("bad_token");
      return;
    }
    if (code === CLOSE_NO_ROOM) {
      this.setStatus("closed");
      this.emit("no_room");
      return;
    }
    this.attempt += 1;
    this.setStatus("reconnecting");
    // Exponential backoff with jitter, capped: 0.5 s, 1 s, 2 s, … 10 s. After a restart's
    // 1012 the first try comes within 0.1–0.6 s, spread so a worker's sockets do not all
    // arrive at the next one at once.
    const delay =
      code === CLOSE_RESTART && this.attempt === 1
        ? 100 + Math.random() * 500
        : Math.min(10000, 500 * 2 ** (this.attempt - 1)) * (0.75 + Math.random() / 2);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (message.type === "state") this.applyState(message);
    else if (message.type) {
      // Presence carries the latest version the server knows: a client behind it missed a
      // push (a dropped bus message, Redis coming back) and re-syncs now, not at the next move.
      if (message.type === "presence" && typeof message.version === "number" && this.publicVersion !== null && message.version > this.publicVersion) {
        this.resync().catch(() => {});
      }
      this.emit(message.type, message);
    }
  }

  applyState(message) {
    const previous = this.version;
    if (previous !== null && message.version <= previous) return; // duplicate or stale
    this.version = message.version;
    if (typeof message.public_version === "number") this.publicVersion = message.public_version;
    if (previous !== null && message.version > previous + 1) {
      // `since`: a catch-up push's events run from that version on (none: fill from the log).
      const since = typeof message.since === "number" ? message.since : null;
      this.emit("gap", { from: previous, to: message.version, events: message.events || [], since });
    }
    this.emit("state", message);
  }

  /** Fetch the caller's view over HTTP (after a gap, or when the socket is down). */
  async resync() {
    const message = await api("GET", `/api/rooms/${encodeURIComponent(this.code)}/state`, {
      token: this.token,
    });
    this.applyState(message);
    return message;
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  act(action) {
    const clientId = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    const sent = this.send({ type: "act", action, client_id: clientId, version: this.version ?? undefined });
    return sent ? clientId : null;
  }

  chat(text) {
    return this.send({ type: "chat", text });
  }

  reconnectAs(token) {
    this.token = token || null;
    this.version = null;
    this.publicVersion = null;
    this.attempt = 0;
    this.close();
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
  }
}
