// The tables waiting for this player ("your turn"), counted where she looks: in the tab title,
// "(2) My tables · Coven", and on the app icon's badge where the browser has one (the Badging
// API: navigator.setAppBadge). Also where her tables come from (POST /api/me/tables: this
// browser's seat tokens in the body, its profile by the cookie) and where each one opens, so
// the home page, My tables and the room page read them alike.

import { api, heldSeats, seats as seatStore } from "./api.js";

/** Whether asking the server can find anything: a profile cookie, or a seat token here. */
export function mayHoldTables(holdsProfile) {
  return Boolean(holdsProfile) || heldSeats().length > 0;
}

/** This browser's tables in progress, yours to play first: ``{now, tables}``, ``now`` the
 * server's clock (epoch seconds) to count the turn clocks' ``due`` down from. */
export function loadMyTables() {
  return api("POST", "/api/me/tables", { body: { seats: heldSeats() } });
}

/** How many of ``tables`` wait for this player's move. */
export function yourTurnCount(tables) {
  return tables.filter((entry) => entry.your_turn).length;
}

/** The tab title with the count before it: "(2) My tables · Coven"; the title alone at 0. */
export function countedTitle(count, title) {
  return count > 0 ? `(${count}) ${title}` : title;
}

/** Shows ``count`` in the tab title (``title`` is the page's own, without a count) and on the
 * app icon's badge, where the browser has one (the call is left out elsewhere, and a refusal,
 * e.g. from a page that is not an installed app, is no harm). */
export function showWaitingCount(count, title) {
  document.title = countedTitle(count, title);
  document.documentElement.dataset.waiting = String(count);
  if (count > 0 && typeof navigator.setAppBadge === "function") {
    navigator.setAppBadge(count).catch(() => {});
  } else if (count === 0 && typeof navigator.clearAppBadge === "function") {
    navigator.clearAppBadge().catch(() => {});
  }
}

/** Where a table of hers opens: its room page; with ``#here`` when this browser holds no token
 * for it (her profile holds the seat, taken on another device): the room page then takes the
 * seat for this browser at once. */
export function tableHref(code) {
  const here = !seatStore.get(code);
  return `/r/${encodeURIComponent(code)}${here ? "#here" : ""}`;
}
