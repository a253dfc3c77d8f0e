// My tables (/tables): every table this browser (its seat tokens) and its profile sit at that
// is not finished, in three groups: yours to play (the clock that runs out first first), the
// others' to play, the rooms waiting for players. Each row: the room's name and game, the
// players, whose turn it is, the time left on the owing seat's clock (clocks.js: the table's own
// chip and words, counted down in the server's time), the last move. The count of tables
// waiting for you goes in the tab title and on the app icon's badge (waiting_count.js).
// Refreshed every 20 s and when the tab comes back into view.

import { clockChip, serverNow, setServerNow } from "./clocks.js";
import { clear, h } from "./dom.js";
import { has, initI18n, onLanguageChange, t } from "./i18n.js";
import { loadMyTables, mayHoldTables, showWaitingCount, tableHref, yourTurnCount } from "./waiting_count.js";

const REFRESH_MS = 20000;
const root = document.getElementById("my-tables");
const body = document.getElementById("my-tables-body");
const note = document.getElementById("my-tables-note");
const holdsProfile = root.dataset.profile === "1";

// The tables of the last answer (its ``now`` set the server's time: clocks.js setServerNow).
let mine = { tables: [] };
let loaded = false;
let refreshTimer = null;
let asked = 0; // refreshes asked for: only the latest one's answer is drawn

window.coven = Object.assign(window.coven || {}, { myTables: { loads: 0 } });

function gameTitle(id) {
  const key = `game.${id}.title`;
  return has(key) ? t(key) : id;
}

function seatName(table, seat) {
  return (table.seats.find((s) => s.seat === seat) || {}).name;
}

// -- time ------------------------------------------------------------------------------------

/** "3 hours ago", "hace 3 horas", "3 giờ trước": how long ago ``at`` was. */
function agoText(at, now) {
  const ago = Math.max(0, now - at);
  const format = new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "auto" });
  if (ago < 60) return format.format(0, "second");
  if (ago < 3600) return format.format(-Math.floor(ago / 60), "minute");
  if (ago < 86400) return format.format(-Math.floor(ago / 3600), "hour");
  return format.format(-Math.floor(ago / 86400), "day");
}

/** The clock that matters to this row: hers on her turn, else the first to run out. */
function dueOf(entry) {
  if (entry.your_turn && entry.seat_due[entry.seat] != null) return entry.seat_due[entry.seat];
  return entry.due;
}

// -- the rows --------------------------------------------------------------------------------

function turnText(entry) {
  const { table } = entry;
  if (table.status === "open") {
    if (table.seats.length >= table.seat_count) return t("tables.waiting_start");
    return t("home.waiting_players", { taken: table.seats.length, total: table.seat_count });
  }
  if (entry.your_turn) return t("home.your_turn");
  const names = entry.to_move.map((seat) => seatName(table, seat)).filter(Boolean);
  return names.length ? t("home.waiting_for", { names: names.join(", ") }) : t("lobby.playing");
}

/** The owing seat's clock, in the table's own words ("0:42", "due in 19 h"), ticking by
 * itself (clocks.js). */
function timeLeft(entry) {
  const due = dueOf(entry);
  if (due == null) return null;
  return clockChip(t, { due, pace: entry.pace, label: t("tables.time_left"), testid: "time-left" });
}

function whenLine(entry) {
  const { table } = entry;
  const waiting = table.status === "open";
  const at = waiting ? table.created_at : entry.last_move_at;
  if (at == null) return null;
  const key = waiting ? "tables.opened" : "tables.last_move";
  return h(
    "span",
    { class: "my-table-when small muted", "data-testid": "last-move", dataset: { since: String(at), key } },
    t(key, { when: agoText(at, serverNow()) }),
  );
}

function tableRow(entry) {
  const { table } = entry;
  const players = table.seats.map((s) => (s.seat === entry.seat ? t("home.you_named", { name: s.name }) : s.name));
  const badge = entry.your_turn ? " you" : table.status === "playing" ? " live" : "";
  return h(
    "li",
    {
      class: `my-table${entry.your_turn ? " mine" : ""}`,
      "data-testid": "my-table",
      dataset: { code: table.code, yourTurn: entry.your_turn ? "1" : "0" },
    },
    h(
      "a",
      { class: "my-table-link", href: tableHref(table.code) },
      h(
        "span",
        { class: "my-table-what" },
        h("strong", { class: "my-table-name" }, table.name),
        h("span", { class: "muted small" }, gameTitle(table.game)),
        entry.circle ? h("span", { class: "badge" }, t("home.for_circle", { name: entry.circle.name })) : null,
      ),
      h("span", { class: "my-table-players small", "data-testid": "players" }, players.join(" · ")),
      h(
        "span",
        { class: "my-table-state" },
        h("span", { class: `badge${badge}`, "data-testid": "turn" }, turnText(entry)),
        timeLeft(entry),
        whenLine(entry),
      ),
    ),
  );
}

function group(title, testid, entries) {
  if (!entries.length) return null;
  return h(
    "section",
    { class: "my-tables-group", "data-testid": testid },
    h("h2", {}, title, " ", h("span", { class: "muted small" }, `(${entries.length})`)),
    h("ul", { class: "my-tables-list" }, entries.map(tableRow)),
  );
}

function emptyState() {
  return h(
    "div",
    { class: "panel my-tables-empty", "data-testid": "my-tables-empty" },
    h("p", {}, t("tables.empty")),
    h("p", { class: "muted small" }, t(holdsProfile ? "tables.empty_help_profile" : "tables.empty_help")),
    h(
      "p",
      { class: "button-row" },
      h("a", { class: "btn primary", href: "/", "data-testid": "my-tables-lobby" }, t("tables.to_lobby")),
      holdsProfile ? null : h("a", { class: "btn", href: "/profile" }, t("profile.entry_keep")),
    ),
  );
}

function pageTitle() {
  return `${t("tables.title")} · Coven`;
}

function draw() {
  if (!loaded) return;
  const { tables } = mine;
  showWaitingCount(yourTurnCount(tables), pageTitle());
  clear(body);
  if (!tables.length) {
    body.append(emptyState());
    return;
  }
  const yours = tables.filter((e) => e.your_turn);
  const playing = tables.filter((e) => !e.your_turn && e.table.status === "playing");
  const waiting = tables.filter((e) => !e.your_turn && e.table.status !== "playing");
  const groups = [
    group(t("tables.group_yours"), "my-tables-yours", yours),
    group(t("tables.group_others"), "my-tables-others", playing),
    group(t("tables.group_waiting"), "my-tables-waiting", waiting),
  ];
  body.append(...groups.filter(Boolean));
}

/** Every second: the "ago"s, in place (the clocks tick by themselves; nothing else is drawn
 * again). */
function tick() {
  const now = serverNow();
  for (const line of body.querySelectorAll("[data-since]")) {
    const text = t(line.dataset.key, { when: agoText(Number(line.dataset.since), now) });
    if (line.textContent !== text) line.textContent = text;
  }
}

async function refresh() {
  clearTimeout(refreshTimer);
  // (a slow answer overtaken by a later one, the tab back in view meanwhile, is dropped)
  const ticket = ++asked;
  try {
    const answer = mayHoldTables(holdsProfile) ? await loadMyTables() : { tables: [] };
    if (ticket !== asked) return;
    if (answer.now) setServerNow(answer.now);
    mine = answer;
    loaded = true;
    note.textContent = "";
    draw();
  } catch {
    note.textContent = t("tables.refresh_failed");
  } finally {
    if (ticket === asked) {
      body.setAttribute("aria-busy", "false");
      window.coven.myTables.loads += 1;
      refreshTimer = setTimeout(refresh, REFRESH_MS);
    }
  }
}

async function main() {
  await initI18n();
  onLanguageChange(() => {
    draw();
    if (note.textContent) note.textContent = t("tables.refresh_failed");
  });
  await refresh();
  setInterval(tick, 1000);
  // Back in view (another tab, a phone woken up, the back button): fresh at once.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refresh();
  });
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
