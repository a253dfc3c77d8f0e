// This device's "your turn" pushes for its seat (issue 20), in the room page's Notifications
// panel (#push-box in #notify-panel, templates/room.html).
//
// A seated player may opt in per device: the browser's permission, the service worker
// (/sw.js, static/sw.js), a push subscription made with the server's key
// (GET /api/push/key), sent to POST /api/rooms/{code}/push with the seat's token. The server
// then pushes when it becomes this seat's turn and no tab of the seat is in view. Turning it
// off removes it (DELETE …/push); the browser's subscription itself is dropped once no table
// of this device uses it any more (one subscription serves every table of the site).
//
// Where the browser cannot (no secure context, no service worker or Push API), a short muted
// line says why; the page works the same without any of it.

import { api, seats as seatStore } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText } from "./forms.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";
import { useStylesheet } from "./table.js";

useStylesheet("push.css");

const code = document.getElementById("room").dataset.code;
const panel = document.getElementById("notify-panel");
const box = document.getElementById("push-box");
// The tables this device has pushes on for (one browser subscription serves them all).
const ROOMS_KEY = "coven:push:rooms";
// A browser that cannot reach its push service (offline, blocked) may never answer a
// subscription: given up after this long, with a message.
const SUBSCRIBE_MS = 20000;

const state = {
  mode: "idle", // "idle" | "unsupported" | "off" | "on" | "busy"
  why: "", // unsupported: the i18n key of the reason
  note: "", // the last failure, shown under the button
  token: undefined, // the seat token this box was drawn for (null: none)
};

window.coven = Object.assign(window.coven || {}, { push: state });

// -- this device's tables with pushes on -----------------------------------------------------

const pushRooms = {
  all() {
    try {
      const list = JSON.parse(localStorage.getItem(ROOMS_KEY) || "[]");
      return Array.isArray(list) ? list.filter((c) => typeof c === "string") : [];
    } catch {
      return [];
    }
  },
  has(room) {
    return this.all().includes(room);
  },
  add(room) {
    if (!this.has(room)) localStorage.setItem(ROOMS_KEY, JSON.stringify([...this.all(), room]));
  },
  remove(room) {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(this.all().filter((c) => c !== room)));
  },
};

// -- what the browser can do -----------------------------------------------------------------

function unsupportedReason() {
  if (!window.isSecureContext) return "push.needs_https";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "push.unsupported";
  }
  return "";
}

function base64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  return navigator.serviceWorker.getRegistration("/");
}

async function currentSubscription() {
  const found = await registration();
  return found ? found.pushManager.getSubscription() : null;
}

class PushFailure extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

/** The browser's subscription made with the server's key (a new one if the key changed). */
async function subscribe() {
  const { public_key: key } = await api("GET", "/api/push/key");
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const ready = await navigator.serviceWorker.ready;
  let subscription = await ready.pushManager.getSubscription();
  const made = subscription && subscription.options && subscription.options.applicationServerKey;
  if (subscription && made && base64url(made) !== key) {
    await subscription.unsubscribe().catch(() => {});
    subscription = null;
  }
  if (!subscription) {
    try {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), SUBSCRIBE_MS);
      });
      const asked = ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(key) });
      subscription = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
    } catch (err) {
      throw new PushFailure(err && err.name === "NotAllowedError" ? "push.denied" : "push.no_service");
    }
  }
  return subscription;
}

async function tellServer(subscription) {
  await api("POST", `/api/rooms/${encodeURIComponent(code)}/push`, {
    body: { subscription: subscription.toJSON(), lang: document.documentElement.lang || "en" },
    token: state.token,
  });
}

// -- turning it on and off -------------------------------------------------------------------

function failure(err) {
  if (err instanceof PushFailure) return t(err.key);
  if (err && err.code) return errorText(err);
  return t("push.failed");
}

async function turnOn() {
  state.mode = "busy";
  state.note = "";
  draw();
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new PushFailure("push.denied");
    await tellServer(await subscribe());
    pushRooms.add(code);
    state.mode = "on";
  } catch (err) {
    state.mode = "off";
    state.note = failure(err);
  }
  draw();
}

async function turnOff() {
  state.mode = "busy";
  state.note = "";
  draw();
  try {
    const subscription = await currentSubscription();
    if (subscription) {
      await api("DELETE", `/api/rooms/${encodeURIComponent(code)}/push`, {
        body: { endpoint: subscription.endpoint },
        token: state.token,
      });
    }
    pushRooms.remove(code);
    if (subscription && pushRooms.all().length === 0) await subscription.unsubscribe().catch(() => {});
    state.mode = "off";
  } catch (err) {
    state.mode = "on";
    state.note = failure(err);
  }
  draw();
}

/** On for this table if this device turned it on and still holds its subscription: sent again
 * (the browser may have renewed it, or the page's language changed). */
async function refresh() {
  if (!pushRooms.has(code)) return "off";
  const subscription = await currentSubscription().catch(() => null);
  if (!subscription) {
    pushRooms.remove(code);
    return "off";
  }
  try {
    await tellServer(subscription);
    return "on";
  } catch (err) {
    if (err && err.status >= 400 && err.status < 500 && err.code !== "rate_limited") {
      pushRooms.remove(code);
      return "off";
    }
    return "on"; // the server is away for now: what this device chose stands
  }
}

// -- drawing ---------------------------------------------------------------------------------

function draw() {
  clear(box);
  if (state.mode === "idle") return;
  panel.hidden = false;
  box.dataset.state = state.mode;
  if (state.mode === "unsupported") {
    box.append(h("p", { class: "muted small push-why", "data-testid": "push-unsupported" }, t(state.why)));
    return;
  }
  const on = state.mode === "on";
  box.append(
    h("p", { class: "small push-status", "data-testid": "push-status" }, t(on ? "push.on" : "push.explain")),
    h(
      "button",
      {
        class: on ? "btn push-toggle" : "btn primary push-toggle",
        type: "button",
        "data-testid": "push-toggle",
        "aria-pressed": on ? "true" : "false",
        disabled: state.mode === "busy",
        onclick: () => (on ? turnOff() : turnOn()),
      },
      t(on ? "push.turn_off" : "push.turn_on"),
    ),
  );
  if (state.note) box.append(h("p", { class: "small push-note", role: "alert", "data-testid": "push-note" }, state.note));
}

/** Shown for a seated player of this browser only; looked at again when the seats change. */
async function update() {
  const held = seatStore.get(code);
  const token = held ? held.token : null;
  if (token === state.token) return;
  state.token = token;
  if (!token) {
    state.mode = "idle";
    draw();
    return;
  }
  const why = unsupportedReason();
  if (why) {
    state.mode = "unsupported";
    state.why = why;
    draw();
    return;
  }
  if (Notification.permission === "denied") state.note = t("push.denied");
  const mode = await refresh();
  if (state.token === token) {
    state.mode = mode;
    draw();
  }
}

async function main() {
  await initI18n();
  await update();
  onLanguageChange(() => {
    draw();
    if (state.mode === "on") refresh();
  });
  // Taking or leaving a seat redraws the seat list: the token may have come or gone.
  const seatsList = document.getElementById("seats");
  if (seatsList) new MutationObserver(() => update()).observe(seatsList, { childList: true });
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith("coven:seat:")) update();
  });
}

main();
