// The lobby's top for a returning player (issue 19): her profile, her tables in progress (yours
// to play first), her circles with their open tables, her recent matches. A new visitor (no
// profile cookie, no seat token in this browser) sees none of it and costs no request.

import { api, heldSeats } from "./api.js";
import { keepInvite } from "./circle_invites.js";
import { clear, h } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { has, onLanguageChange, t, tn } from "./i18n.js";
import { loadMyTables, showWaitingCount, tableHref, yourTurnCount } from "./waiting_count.js";

const RECENT = 5;
const POLL_MS = 10000;
// A lobby in a background tab still counts the tables waiting for her in its title, at this
// pace (every third poll).
const HIDDEN_POLLS = 3;
// The page's own title, without the count (static/js/waiting_count.js puts it before).
const TITLE = document.title;

let data = { profile: null, tables: [], circles: [], matches: [] };

function gameTitle(id) {
  const key = `game.${id}.title`;
  return has(key) ? t(key) : id;
}

export function dateText(seconds) {
  return new Intl.DateTimeFormat(document.documentElement.lang || "en", {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(seconds * 1000));
}

/** "Your turn", whose turn it is, or how many seats are taken while a room waits. */
function turnText(entry) {
  const { table } = entry;
  if (table.status === "open") {
    return t("home.waiting_players", { taken: table.seats.length, total: table.seat_count });
  }
  if (entry.your_turn) return t("home.your_turn");
  const names = entry.to_move.map((seat) => (table.seats.find((s) => s.seat === seat) || {}).name).filter(Boolean);
  return names.length ? t("home.waiting_for", { names: names.join(", ") }) : t("lobby.playing");
}

function tableRow(entry) {
  const { table } = entry;
  const players = table.seats.map((s) => (s.seat === entry.seat ? t("home.you_named", { name: s.name }) : s.name));
  return h(
    "li",
    { class: `home-table${entry.your_turn ? " mine" : ""}`, dataset: { code: table.code }, "data-testid": "home-table" },
    h(
      "a",
      { class: "room-link", href: tableHref(table.code) },
      h("strong", {}, table.name),
      h("span", { class: "muted small" }, gameTitle(table.game)),
      h("span", { class: `badge${entry.your_turn ? " you" : table.status === "playing" ? " live" : ""}`, "data-testid": "turn" }, turnText(entry)),
      entry.circle ? h("span", { class: "badge" }, t("home.for_circle", { name: entry.circle.name })) : null,
      h("span", { class: "home-players small muted" }, players.join(" · ")),
    ),
  );
}

export function openTableRow(table) {
  return h(
    "li",
    { "data-testid": "circle-table", dataset: { code: table.code } },
    h(
      "a",
      { class: "room-link", href: `/r/${encodeURIComponent(table.code)}` },
      h("strong", {}, table.name),
      h("span", { class: "muted small" }, gameTitle(table.game)),
      h("span", { class: "badge" }, t("lobby.seats_taken", { taken: table.seats.length, total: table.seat_count })),
      table.status === "playing" ? h("span", { class: "badge live" }, t("lobby.playing")) : null,
    ),
  );
}

function circleRow(entry) {
  const { circle } = entry;
  return h(
    "li",
    { class: "home-circle", "data-testid": "home-circle", dataset: { circle: circle.public_id } },
    h(
      "div",
      { class: "home-circle-head" },
      h("a", { href: `/circles/${encodeURIComponent(circle.public_id)}` }, h("strong", {}, circle.name)),
      h("span", { class: "muted small" }, tn("home.members", circle.members)),
    ),
    entry.tables.length ? h("ul", { class: "room-list" }, entry.tables.map(openTableRow)) : null,
  );
}

/** One finished match as a line: game, date, players by place, a link to its replay. */
export function matchRow(match, { member = () => false } = {}) {
  const seats = [...match.seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
  const code = match.code || match.room;
  return h(
    "li",
    { class: "home-match", "data-testid": "match-row" },
    h("span", { class: "home-match-head" }, h("strong", {}, gameTitle(match.game)), h("span", { class: "muted small" }, dateText(match.finished_at))),
    h(
      "span",
      { class: "home-match-seats small" },
      seats.map((s, i) => [
        i ? " · " : "",
        h("span", { class: member(s) || s.you ? "home-member" : "" }, t("home.place_name", { place: s.place, name: s.former ? t("history.former") : s.name })),
      ]),
    ),
    code ? h("a", { class: "small", href: `/r/${encodeURIComponent(code)}/replay` }, t("home.replay")) : null,
  );
}

function newCircleForm() {
  const input = h("input", { name: "circle-name", maxlength: 40, required: true, "data-testid": "new-circle-name", "aria-label": t("home.circle_name"), placeholder: t("home.circle_name") });
  const error = h("p", { class: "error small", role: "alert" });
  const form = h(
    "form",
    { class: "home-new-circle", "data-testid": "new-circle", novalidate: true },
    h("div", { class: "copy-row" }, input, h("button", { class: "btn", type: "submit", "data-testid": "create-circle" }, t("home.create_circle"))),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = typedName(input.value);
    if (!name) {
      error.textContent = t("room.error_bad_circle_name");
      return;
    }
    try {
      const made = await api("POST", "/api/circles", { body: { name } });
      keepInvite(made.circle.public_id, made.invite);
      location.href = `/circles/${encodeURIComponent(made.circle.public_id)}`;
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  return form;
}

function section(title, testid, list) {
  return h("section", { class: "panel home-panel", "data-testid": testid }, h("h2", {}, title), list);
}

function fillList(box, entries, row, empty, listClass) {
  clear(box);
  box.append(entries.length ? h("ul", { class: listClass }, entries.map(row)) : empty && h("p", { class: "muted small" }, empty));
}

// An empty list of tables or matches is not worth its place above the lobby (on a phone it
// pushes "Open a table" down a screen): its panel shows once it has something.
function showIfAny(box, entries) {
  box.closest(".home-panel").hidden = !entries.length;
}

// The lists are refilled on every poll; the rest (the new circle's name being typed) stays.
const boxes = {};

function build() {
  const root = clear(document.getElementById("home"));
  const { profile } = data;
  if (profile) {
    root.append(
      h(
        "p",
        { class: "home-hello", "data-testid": "home-profile" },
        t("home.hello", { name: profile.name }),
        " ",
        h("a", { href: `/p/${encodeURIComponent(profile.public_id)}`, "data-testid": "home-profile-link" }, t("home.your_profile")),
      ),
    );
  }
  boxes.tables = h("div");
  const tables = section(t("home.tables"), "home-tables", boxes.tables);
  tables.append(h("p", { class: "small home-see-all" }, h("a", { href: "/tables", "data-testid": "home-see-all" }, t("tables.see_all"))));
  const panels = h("div", { class: "home-grid" }, tables);
  if (profile) {
    boxes.circles = h("div");
    boxes.matches = h("div");
    const circles = section(t("home.circles"), "home-circles", boxes.circles);
    circles.append(newCircleForm());
    panels.append(circles, section(t("home.recent"), "home-recent", boxes.matches));
  }
  root.append(panels);
  fill();
}

function fill() {
  const { tables, circles, matches } = data;
  fillList(boxes.tables, tables, tableRow, null, "room-list");
  showIfAny(boxes.tables, tables);
  if (boxes.circles) fillList(boxes.circles, circles, circleRow, t("home.no_circles"), "home-circles");
  if (boxes.matches) {
    fillList(boxes.matches, matches, (m) => matchRow(m), null, "home-matches");
    showIfAny(boxes.matches, matches);
  }
}

function visible() {
  return Boolean(data.profile || data.tables.length);
}

async function load(holdsProfile) {
  const profile = holdsProfile ? await api("GET", "/api/profile").catch(() => null) : null;
  const seats = heldSeats();
  const [tables, circles, history] = await Promise.all([
    // (a failed poll keeps the tables it had: the count in the title does not blink to 0)
    profile || seats.length ? loadMyTables().then((mine) => mine.tables).catch(() => data.tables) : [],
    profile ? api("GET", "/api/circles").catch(() => []) : [],
    profile ? api("GET", `/api/profiles/${encodeURIComponent(profile.public_id)}/matches?limit=${RECENT}`).catch(() => null) : null,
  ]);
  const before = data;
  data = { profile, tables, circles, matches: (history && history.matches) || [] };
  showWaitingCount(yourTurnCount(tables), TITLE);
  const root = document.getElementById("home");
  root.hidden = !visible();
  if (root.hidden) return;
  // Built again only when what frames the lists changed (the profile, or the first showing).
  if (!root.firstChild || JSON.stringify(before.profile) !== JSON.stringify(profile)) build();
  else fill();
}

/** Draws the returning player's part of the lobby (``#home``), and keeps it fresh. */
export async function showHome() {
  const root = document.getElementById("home");
  const holdsProfile = root.dataset.profile === "1";
  if (!holdsProfile && !heldSeats().length) return;
  await load(holdsProfile);
  onLanguageChange(() => {
    if (visible()) build();
  });
  // Whose turn it is changes while the lobby is open (and its title counts it in the tab bar).
  let polls = 0;
  setInterval(() => {
    polls += 1;
    if (!document.hidden || polls % HIDDEN_POLLS === 0) load(holdsProfile).catch(() => {});
  }, POLL_MS);
}
