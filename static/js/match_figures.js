// What history shows of finished matches, shared by the profile page, the leaderboard and the
// end screen: game titles, each game's own figures by name (`stat.{game}.{name}`), numbers and
// dates in the page's language, a match's seats, and the per-match table of figures.

import { api } from "./api.js";
import { h } from "./dom.js";
import { has, onLanguageChange, t } from "./i18n.js";

export function gameTitle(id) {
  const key = `game.${id}.title`;
  return has(key) ? t(key) : id;
}

/** One of a game's figures by its name ("cubes_poured" → "Cubes poured"). */
export function statLabel(game, name) {
  const key = `stat.${game}.${name}`;
  return has(key) ? t(key) : name.replaceAll("_", " ");
}

function lang() {
  return document.documentElement.lang || "en";
}

/** A count or an average, in the page's language (at most one decimal). */
export function numberText(value, digits = 1) {
  if (value === null || value === undefined) return "–";
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: digits }).format(value);
}

export function dateText(seconds) {
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

/** A seat's name as history shows it: a deleted profile is "a former player", a bot says so. */
export function seatName(seat) {
  if (seat.former) return t("history.former");
  if (seat.bot) return t("history.bot_named", { name: seat.name, level: botLevel(seat.bot) });
  return seat.name;
}

function botLevel(level) {
  const key = `room.bot_level_${level}`;
  return has(key) ? t(key) : level;
}

/** The name, linked to the profile's page when the server gave its id (a listed profile). */
export function seatLink(seat) {
  const name = seatName(seat);
  if (!seat.public_id) return h("span", {}, name);
  return h("a", { href: `/p/${encodeURIComponent(seat.public_id)}` }, name);
}

export function byPlace(seats) {
  return [...seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
}

/** The table of one match: place, player, score and each of the game's figures per seat. It
 * scrolls sideways inside its own box when the figures are wider than the screen. */
export function figuresTable(game, names, seats) {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, t("history.col_place")),
    h("th", { scope: "col" }, t("history.col_player")),
    h("th", { scope: "col", class: "num" }, t("history.col_score")),
    names.map((name) => h("th", { scope: "col", class: "num" }, statLabel(game, name))),
  );
  const rows = byPlace(seats).map((seat) =>
    h(
      "tr",
      { class: seat.you ? "you" : "", "data-seat": seat.seat },
      h("td", {}, numberText(seat.place, 0)),
      h("th", { scope: "row" }, seatLink(seat)),
      h("td", { class: "num" }, numberText(seat.score)),
      names.map((name) => h("td", { class: "num" }, numberText(seat.stats[name]))),
    ),
  );
  return h(
    "div",
    { class: "hist-scroll", tabindex: 0, role: "region", "aria-label": t("history.figures_title") },
    h("table", { class: "hist-table" }, h("thead", {}, head), h("tbody", {}, rows)),
  );
}

// -- the end screen ---------------------------------------------------------------------------

const WAIT_MS = 1000;
const TRIES = 30;
// Per room: the section shown on its end screen and the results once recorded (the renderer
// redraws the end screen: the same section is put back, never fetched again).
const shown = new Map();

/** The match's figures under its end screen: asked for once the match is over, shown once the
 * server has recorded it (a moment after the last move). */
export function showMatchFigures(end, code) {
  let entry = shown.get(code);
  if (!entry) {
    // The room page has the table's components loaded already; they link this page's CSS once.
    import("./table.js").then((table) => table.useStylesheet("history.css")).catch(() => {});
    entry = { section: h("section", { class: "hist-end", "data-testid": "match-figures" }), answer: null };
    shown.set(code, entry);
    drawFigures(entry);
    fill(entry, code).catch(() => entry.section.remove());
  }
  if (entry.section.parentNode !== end) end.append(entry.section);
}

function drawFigures(entry) {
  const { section, answer } = entry;
  if (!answer) {
    section.replaceChildren(h("p", { class: "muted small" }, t("history.figures_pending")));
    return;
  }
  section.replaceChildren(
    h("h3", {}, t("history.figures_title")),
    figuresTable(answer.game, answer.statistic_names, answer.match.seats),
  );
  section.dataset.recorded = "1";
}

onLanguageChange(() => {
  for (const entry of shown.values()) drawFigures(entry);
});

async function fill(entry, code) {
  for (let tries = 0; tries < TRIES; tries += 1) {
    const answer = await api("GET", `/api/rooms/${encodeURIComponent(code)}/results`);
    if (answer.recorded && answer.match) {
      entry.answer = answer;
      drawFigures(entry);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
  entry.section.remove();
}
