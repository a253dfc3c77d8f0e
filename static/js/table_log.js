// The room page's table log: the events this page was shown, and the history it reads only
// when it is wanted. A page that arrives in a long match gets the state, not the history: its
// log starts at the version it arrived at, under a "Show earlier moves" control that reads one
// page of the versions just before (GET …/log?before=N&limit=K) — once by itself when the log
// first comes into view, then at each press. A gap that a catch-up push covered (its `since`)
// reads nothing; another reads what was missed (?since=…&before=…) when it is a page or less,
// and otherwise starts the log afresh at the new version, the control reading back from there.

import { api } from "./api.js";
import { clear, h } from "./dom.js";

export const LOG_PAGE = 40; // versions one read of the history holds
const KEPT = 1000; // entries held at most: live events push the oldest versions out

/**
 * @param {object} options
 * @param {string} options.code the room
 * @param {(key: string) => string} options.t
 * @param {(event: object) => string | null} options.describe the log line of an event
 * @param {() => string | null} options.token the seat's token (its own numbering of versions)
 * @param {() => HTMLElement} options.list the log's list
 */
export function createTableLog({ code, t, describe, token, list }) {
  const entries = []; // {version, order, event}
  let order = 0;
  // Every event of versions `from` … now is held (null: no state yet). The match's first
  // action is version 1, so from ≤ 1 is the whole match.
  let from = null;
  let reading = null; // the read of an earlier page in flight
  let watched = false; // the log's first coming into view reads a page by itself

  const whole = () => from !== null && from <= 1;
  const path = `/api/rooms/${encodeURIComponent(code)}/log`;
  const read = (query) => api("GET", `${path}?${query}`, { token: token() });

  function add(version, events) {
    for (const event of events) entries.push({ version, order: order++, event });
  }

  // Live events push out the oldest versions whole, so `from` stays true.
  function trim() {
    if (entries.length <= KEPT) return;
    entries.sort((a, b) => a.version - b.version || a.order - b.order);
    while (entries.length > KEPT) {
      const oldest = entries[0].version;
      while (entries.length && entries[0].version === oldest) entries.shift();
      from = Math.max(from ?? 0, oldest + 1);
    }
  }

  /** A `state` message's events; the first one tells where this page's log begins. */
  function shown(message) {
    if (from === null) from = message.version;
    add(message.version, message.events || []);
    trim();
  }

  /** Versions this page never received (client.js's `gap`), before the message that ends it
   * is shown: `since` says the catch-up push holds them all. */
  async function gap({ from: had, to, since }) {
    if (since !== null && since !== undefined && since <= had) return;
    if (to - had - 1 > LOG_PAGE) {
      entries.length = 0; // afresh at `to`: the control reads back from there
      from = to;
      return;
    }
    try {
      const log = await read(`since=${Math.max(0, had)}&before=${to}`);
      for (const { version, ...event } of log.events) {
        if (version > had && version < to) add(version, [event]);
      }
      render();
    } catch {
      /* the log is a comfort, not a necessity */
    }
  }

  /** One page of the versions before those held. */
  function earlier() {
    if (reading || from === null || whole()) return reading;
    const before = from;
    reading = read(`before=${before}&limit=${LOG_PAGE}`)
      .then((log) => {
        if (from !== before) return; // started afresh meanwhile
        for (const { version, ...event } of log.events) add(version, [event]);
        from = Math.max(1, before - LOG_PAGE);
      })
      .catch(() => {})
      .finally(() => {
        reading = null;
        render({ kept: true });
      });
    render({ kept: true });
    return reading;
  }

  // The first time the log is in view (the side column, or the phone's drawer on its tab).
  const watcher = new IntersectionObserver((seen) => {
    if (watched || from === null || !seen.some((entry) => entry.isIntersecting)) return;
    watched = true;
    watcher.disconnect();
    earlier();
  });

  // One control for the page's life: a redraw (every version) moves it, never replaces it, so
  // a press or the focus on it is not lost to a move arriving.
  const button = h("button", { class: "btn small", type: "button", "data-testid": "log-earlier", onclick: () => earlier() });
  const earlierItem = h("li", { class: "log-earlier" }, button);

  function control() {
    if (from === null) return null;
    if (whole()) return h("li", { class: "log-match_started" }, describe({ type: "match_started" }));
    // (busy, not disabled: a disabled button would drop the keyboard focus)
    button.setAttribute("aria-disabled", String(Boolean(reading)));
    button.textContent = t("room.log_earlier");
    return earlierItem;
  }

  /** Draw the list: at its end, or (`kept`) where the reader was, earlier lines above. */
  function render({ kept = false } = {}) {
    const node = list();
    const fromEnd = node.scrollHeight - node.scrollTop;
    const focused = node.contains(document.activeElement);
    const onButton = document.activeElement === button;
    clear(node);
    const first = control();
    if (first) node.append(first);
    for (const entry of [...entries].sort((a, b) => a.version - b.version || a.order - b.order)) {
      const text = describe(entry.event);
      if (text) node.append(h("li", { class: `log-${entry.event.type}`, "data-version": String(entry.version) }, text));
    }
    node.scrollTop = kept ? node.scrollHeight - fromEnd : node.scrollHeight;
    // Taken out and put back, the control lost the focus: give it back (or, once the whole
    // match is shown and the control gone, to the list).
    if (focused) (onButton && node.contains(button) ? button : node).focus();
    if (!watched && from !== null && !whole()) watcher.observe(node);
  }

  return { shown, gap, earlier, render };
}
