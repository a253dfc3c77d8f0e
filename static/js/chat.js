// The room's chat: each line drawn as text nodes (only a link to one of this server's own rooms
// becomes a link), a line from the history never twice, and the message being sent kept in its
// input until the server echoes it back; a refusal (too fast, too long) leaves it there with
// the reason beside it.

import { publicBase } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// Room codes are URL-safe base64 (app/text.py valid_room_code).
const CODE = /^[A-Za-z0-9_-]{1,64}$/;
// What may end a sentence right after a link: it stays text.
const TRAILING = /[.,;:!?)\]}'"»”’]+$/;
// An absolute http(s) address, or a relative room path standing on its own.
const CANDIDATE = /https?:\/\/\S+|(?<!\S)\/r\/\S+/g;
// Server refusals of a chat line (app/api/ws.py _chat): they never carry a client_id.
const CHAT_ERRORS = new Set(["rate_limited", "chat_too_long", "bad_message"]);
// How long a sent line waits for its echo before the input says it was not confirmed.
const ECHO_SECONDS = 8;

/** The addresses this server's rooms live under: the page's own origin and COVEN_PUBLIC_URL. */
function roomBases() {
  const bases = [];
  for (const raw of [location.origin, publicBase()]) {
    try {
      const url = new URL(raw);
      bases.push({ origin: url.origin, path: url.pathname.replace(/\/+$/, "") });
    } catch {
      /* not an address: no links under it */
    }
  }
  return bases;
}

/** The href for `candidate` when it is exactly a room of this server (`/r/{code}`, relative or
 * under one of its addresses, nothing after the code), else null. */
export function roomHref(candidate, bases = roomBases()) {
  if (/^\/r\//.test(candidate)) return CODE.test(candidate.slice(3)) ? candidate : null;
  let url;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash) return null;
  for (const base of bases) {
    if (url.origin !== base.origin || !url.pathname.startsWith(`${base.path}/r/`)) continue;
    if (CODE.test(url.pathname.slice(base.path.length + 3))) return url.href;
  }
  return null;
}

/** A chat text as nodes: plain strings, and an <a> for each link to one of this server's rooms. */
export function chatParts(text, bases = roomBases()) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const candidate = match[0].replace(TRAILING, "");
    const href = roomHref(candidate, bases);
    if (!href) continue;
    parts.push(text.slice(last, match.index), h("a", { href }, candidate));
    last = match.index + candidate.length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== "");
}

/**
 * The chat of one room page. `client` sends (`chat(text)` → sent?), `mySeat()` is this page's
 * seat (null for a spectator), `onLine({mine, at})` hears of each new line drawn, `speaker(message)`
 * names a seat's line (its `name` unless the page says otherwise).
 * Returns `receive(message)` for `chat` messages and `refused(error)` for `error` messages
 * (true when the error was about the line being sent: it is then shown by the input).
 */
export function createChat({ client, mySeat, onLine, speaker = (message) => message.name }) {
  const list = document.getElementById("chat");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const note = document.getElementById("chat-note");
  const seen = new Set(); // the history comes again on every reconnect
  let pending = null; // {text, timer}: the line sent, waiting for its echo
  let noteKey = null;

  function say(key) {
    noteKey = key;
    note.textContent = key ? t(key) : "";
    form.classList.toggle("refused", Boolean(key));
  }

  function settle() {
    if (pending) clearTimeout(pending.timer);
    pending = null;
    form.dataset.sending = "0";
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || pending) return;
    if (!client.chat(text)) {
      say("room.chat_offline");
      return;
    }
    say(null);
    form.dataset.sending = "1";
    pending = {
      text,
      timer: setTimeout(() => {
        settle();
        say("room.chat_unconfirmed");
      }, ECHO_SECONDS * 1000),
    };
  });
  input.addEventListener("input", () => {
    if (noteKey && !pending) say(null);
  });

  function isMine(message) {
    const seat = message.seat === undefined ? null : message.seat;
    if (seat !== mySeat()) return false;
    // Spectators share seat null: theirs is the line they are sending.
    return seat !== null || Boolean(pending && pending.text === message.text);
  }

  return {
    receive(message) {
      const key = `${message.at}|${message.seat}|${message.name}|${message.text}`;
      if (seen.has(key)) return;
      seen.add(key);
      const mine = isMine(message);
      if (mine && pending) {
        // Accepted: the input empties, unless she has typed something else meanwhile.
        if (input.value.trim() === pending.text) input.value = "";
        settle();
        say(null);
      }
      const who = message.seat === null || message.seat === undefined ? t("room.spectator") : speaker(message);
      list.append(h("li", { class: mine ? "mine" : "" }, h("strong", {}, `${who}: `), chatParts(String(message.text))));
      list.scrollTop = list.scrollHeight;
      onLine({ mine, at: Number(message.at) || 0 });
    },
    refused(error) {
      if (!pending || error.client_id || !CHAT_ERRORS.has(error.code)) return false;
      settle();
      say(error.code === "chat_too_long" ? "room.chat_too_long" : error.code === "rate_limited" ? "room.chat_rate_limited" : "room.chat_refused");
      input.focus();
      return true;
    },
    redraw() {
      if (noteKey) note.textContent = t(noteKey);
    },
  };
}
