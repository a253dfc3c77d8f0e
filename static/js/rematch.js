// One-click rematch on the room page (app/rooms/rematch.py): "Play again" opens a new room for the
// whole table, and every page of this room comes over by itself. The host (or any player, if she
// allowed it) presses; the host's choice beside the button (seats kept or one on, who is not here
// in time replaced by a bot or left out) is remembered by this browser. A seated player's old
// token holds her new seat: she tells the new room she came (`arrive`), keeps the token under the
// new room's code and opens it; a spectator just opens it. In the new room, while it waits for
// its players, the waiting room says it starts by itself.

import { api, seats as seatStore } from "./api.js";
import { contributions, newContribution } from "./contribution.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { useStylesheet } from "./table.js";

const CHOICE_KEY = "coven:rematch-choice";

/** The host's choice as this browser remembers it: {seats: keep|rotate, absent: bot|leave_out}. */
export const rematchChoice = {
  get() {
    let stored = null;
    try {
      stored = JSON.parse(localStorage.getItem(CHOICE_KEY) || "null");
    } catch {
      stored = null;
    }
    return {
      seats: stored && stored.seats === "rotate" ? "rotate" : "keep",
      absent: stored && stored.absent === "leave_out" ? "leave_out" : "bot",
    };
  },
  set(choice) {
    localStorage.setItem(CHOICE_KEY, JSON.stringify({ ...rematchChoice.get(), ...choice }));
  },
};

/**
 * The rematch of the room `code`. `page` is the room page's state ({room, mine}); `isHost()`;
 * `redraw()` draws the page again (the end screen comes from the game's renderer); `failed(err)`
 * shows a refusal.
 */
export function createRematch({ code, page, isHost, redraw, failed }) {
  useStylesheet("rematch.css");
  const path = (room) => `/api/rooms/${encodeURIComponent(room)}`;
  const state = {
    pressing: false, // "Play again" sent, the answer not back yet
    following: null, // the new room this page is on its way to
    synced: false, // the host's remembered choice was given to the room (rules "anyone")
    waitingUntil: null, // this room is a rematch waiting for its players: until then (page clock)
    timer: null,
  };
  const note = h("p", { class: "muted rematch-starts", "data-testid": "rematch-starts", "aria-live": "polite" });
  // Back to this page from the new room: a page kept by the browser as it left (its socket
  // closed, below) is opened afresh, live.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && state.following) location.reload();
  });

  const mayPress = () => Boolean(page.mine) && (isHost() || page.room.rematch_by === "anyone");

  async function saveRules(change) {
    const rules = await api("PUT", `${path(code)}/rematch/rules`, { body: change, token: page.mine.token });
    page.room.rematch_by = rules.rematch_by;
    return rules;
  }

  function choose(change) {
    rematchChoice.set(change);
    // With "anyone", another player's press uses the choice the room holds: keep it the host's.
    if (page.room.rematch_by === "anyone") saveRules(change).catch(failed);
  }

  function setWho(who) {
    saveRules({ rematch_by: who, ...rematchChoice.get() })
      .then(() => redraw())
      .catch(failed);
  }

  function picker(testid, label, value, options, onChange) {
    const select = h(
      "select",
      { "data-testid": testid, onchange: (event) => onChange(event.target.value) },
      options.map(([option, words]) => h("option", { value: option }, t(words))),
    );
    select.value = value;
    return h("label", { class: "rematch-option" }, h("span", { class: "muted small" }, t(label)), select);
  }

  function whoPicker() {
    return picker("rematch-by", "room.rematch_by", page.room.rematch_by || "host", [["host", "room.rematch_by_host"], ["anyone", "room.rematch_by_anyone"]], setWho);
  }

  function hostChoice() {
    const choice = rematchChoice.get();
    if (!state.synced && page.room.rematch_by === "anyone") {
      state.synced = true;
      saveRules(choice).catch(() => {}); // the room keeps the last choice it had otherwise
    }
    return h(
      "div",
      { class: "rematch-choice", "data-testid": "rematch-choice" },
      picker("rematch-seats", "room.rematch_seats", choice.seats, [["keep", "room.rematch_keep"], ["rotate", "room.rematch_rotate"]], (seats) => choose({ seats })),
      picker("rematch-absent", "room.rematch_absent", choice.absent, [["bot", "room.rematch_absent_bot"], ["leave_out", "room.rematch_absent_leave_out"]], (absent) => choose({ absent })),
      whoPicker(),
    );
  }

  async function press(event) {
    // Only the button changes: the page is about to leave, a whole redraw would only delay it.
    state.pressing = true;
    event.currentTarget.disabled = true;
    event.currentTarget.textContent = t("room.rematch_going");
    try {
      const body = isHost() ? rematchChoice.get() : {};
      const opened = await api("POST", `${path(code)}/rematch`, { body, token: page.mine.token });
      follow(opened.code);
    } catch (err) {
      state.pressing = false;
      redraw();
      failed(err);
    }
  }

  /** Come over to the new room `newCode` (once), seated if this browser holds a seat. */
  function follow(newCode) {
    if (!newCode || state.following) return;
    state.following = newCode;
    page.room.rematch = newCode;
    if (page.mine) {
      // Her old token holds her seat there; the new page learns its number (from its first
      // state, or from arriving again while the room waits).
      seatStore.set(newCode, null, page.mine.token);
      // Her browser's part of the new room's shuffle goes with her arrival (proof.js).
      const contribution = newContribution();
      contributions.set(newCode, contribution);
      // Said on the way out (a keepalive request outlives this page), so the new room need not
      // wait for the new page to load: the last person to arrive starts the match.
      fetch(`${path(newCode)}/arrive`, {
        method: "POST",
        keepalive: true,
        headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${page.mine.token}` },
        body: JSON.stringify({ contribution }),
      }).catch(() => {});
    }
    // This page is on its way out: its socket goes now, so the others leaving do not make it
    // redraw a table nobody will see, on the processor the new page needs.
    if (page.client) page.client.close();
    location.href = `/r/${encodeURIComponent(newCode)}${location.search}`;
  }

  function tick() {
    const left = Math.max(0, Math.ceil((state.waitingUntil - performance.now()) / 1000));
    note.textContent = t("room.rematch_starts", { seconds: left });
    if (left === 0 || page.room.status !== "open") {
      clearInterval(state.timer);
      state.timer = null;
      if (page.room.status !== "open") state.waitingUntil = null;
    }
  }

  return {
    /** The end screen's rematch ({button, choice} for table.js `endScreen`). */
    controls(label) {
      if (page.room.rematch) {
        const going = state.following !== null;
        const button = h("button", { class: "btn primary", type: "button", "data-testid": "rematch-follow", disabled: going, onclick: () => follow(page.room.rematch) }, t(going ? "room.rematch_going" : "room.rematch_follow"));
        return { button, choice: null };
      }
      if (!page.mine) return { button: null, choice: null }; // a spectator follows by herself
      if (!mayPress()) return { button: null, choice: h("p", { class: "muted rematch-wait", "data-testid": "rematch-waiting" }, t("room.rematch_waiting_host")) };
      const button = h("button", { class: "btn primary", type: "button", "data-testid": "rematch", disabled: state.pressing, onclick: press }, state.pressing ? t("room.rematch_going") : label);
      return { button, choice: isHost() ? hostChoice() : null };
    },
    /** The waiting room's line for the host: who may start a rematch once the match is over. */
    hostRule() {
      return h("div", { class: "button-row rematch-rule" }, whoPicker());
    },
    /** In a rematch that waits for its players: when it starts by itself (else null). */
    waitingNote() {
      if (state.waitingUntil === null || page.room.status !== "open") return null;
      tick();
      return note;
    },
    /** The socket said "Play again" was pressed: come over. */
    opened(message) {
      follow(message.code);
    },
    /** The socket said the host changed who may start a rematch. */
    rulesChanged(message) {
      if (!page.room || typeof message.rematch_by !== "string") return;
      page.room.rematch_by = message.rematch_by;
      redraw();
    },
    /** On opening the page: a rematch still waiting for its players counts down, and a seated
     * player who opened it herself (a reload, a new tab) has come. */
    async load() {
      if (!page.room || page.room.status !== "open") return;
      const info = await api("GET", `${path(code)}/rematch`);
      if (info.waiting_seconds === null) return;
      state.waitingUntil = performance.now() + info.waiting_seconds * 1000;
      state.timer = setInterval(tick, 1000);
      if (page.mine) {
        const contribution = contributions.get(code) || newContribution();
        contributions.set(code, contribution);
        const arrived = await api("POST", `${path(code)}/arrive`, { token: page.mine.token, body: { contribution } });
        page.mine.seat = arrived.seat;
        seatStore.set(code, arrived.seat, page.mine.token);
      }
      redraw();
    },
  };
}
