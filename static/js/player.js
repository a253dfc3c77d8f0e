// A profile's page (/p/{id}): her ratings per game, per game her matches, wins, average place
// and the game's own figures (totals and per match), her record against the visitor's own
// profile, and every finished match, newest first, with a link to its replay where the visitor
// may know the room. Everything comes from GET /api/profiles/{id} and its /matches pages.

import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./forms.js";
import { initI18n, onLanguageChange, t, tn } from "./i18n.js";
import { byPlace, dateText, gameTitle, numberText, seatLink, statLabel } from "./match_figures.js";
import { holdsProfile } from "./profile.js";

const root = document.getElementById("player");
const publicId = root.dataset.profile;

let page = null; // the answer of GET /api/profiles/{id}
let matches = []; // every match shown so far, newest first
let next = null; // where the older matches start
let versus = null; // the visitor's record against this profile (her own profile held)
let failure = null;
let loadingOlder = false;

function panel(title, testid, ...body) {
  return h("section", { class: "panel hist-panel", "data-testid": testid }, h("h2", {}, title), ...body);
}

function header() {
  const { profile } = page;
  const head = h("div", { class: "hist-head" }, h("h1", { "data-testid": "player-name" }, profile.name));
  if (profile.you) {
    head.append(h("span", { class: "chip" }, t("history.you")), h("a", { class: "btn small", href: "/profile" }, t("history.settings")));
    if (!profile.listed || !page.public_profiles) head.append(h("p", { class: "muted small hist-note", "data-testid": "player-private" }, t("history.only_you")));
  }
  return head;
}

function ratings() {
  if (!page.ratings.length) return panel(t("history.ratings"), "player-ratings", h("p", { class: "muted small" }, t("history.no_ratings")));
  const rows = page.ratings.map((r) =>
    h(
      "tr",
      { "data-game": r.game },
      h("th", { scope: "row" }, page.public_profiles ? h("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, gameTitle(r.game)) : gameTitle(r.game)),
      h("td", { class: "num", title: t("history.rating_help") }, h("strong", {}, numberText(r.ordinal))),
      h("td", { class: "num muted small hist-skill" }, t("history.mu_sigma", { mu: numberText(r.mu), sigma: numberText(r.sigma) })),
      h("td", { class: "num" }, numberText(r.matches, 0)),
    ),
  );
  return panel(
    t("history.ratings"),
    "player-ratings",
    h(
      "div",
      { class: "hist-scroll" },
      h(
        "table",
        { class: "hist-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.col_game")), h("th", { scope: "col", class: "num" }, t("history.col_rating")), h("th", { scope: "col", class: "num hist-skill" }, t("history.col_skill")), h("th", { scope: "col", class: "num" }, t("history.col_rated")))),
        h("tbody", {}, rows),
      ),
    ),
    h("p", { class: "muted small" }, t("history.ratings_how")),
  );
}

function versusPanel() {
  if (!versus || !versus.total.matches) return null;
  const row = (g, title) =>
    h("tr", {}, h("th", { scope: "row" }, title), h("td", { class: "num" }, numberText(g.matches, 0)), h("td", { class: "num" }, numberText(g.wins, 0)), h("td", { class: "num" }, numberText(g.losses, 0)), h("td", { class: "num" }, numberText(g.draws, 0)));
  return panel(
    t("history.versus_title", { name: page.profile.name }),
    "player-versus",
    h(
      "div",
      { class: "hist-scroll" },
      h(
        "table",
        { class: "hist-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.col_game")), h("th", { scope: "col", class: "num" }, t("history.col_together")), h("th", { scope: "col", class: "num" }, t("history.col_your_wins")), h("th", { scope: "col", class: "num" }, t("history.col_their_wins", { name: page.profile.name })), h("th", { scope: "col", class: "num" }, t("history.col_draws")))),
        h("tbody", {}, versus.games.map((g) => row(g, gameTitle(g.game))), versus.games.length > 1 ? row(versus.total, t("history.all_games")) : null),
      ),
    ),
  );
}

function gameRecord(record) {
  const figures = record.figures.map((f) =>
    h("tr", {}, h("th", { scope: "row" }, statLabel(record.game, f.name)), h("td", { class: "num" }, numberText(f.total)), h("td", { class: "num" }, numberText(f.average))),
  );
  return h(
    "section",
    { class: "hist-game", "data-testid": "player-game", "data-game": record.game },
    h("h3", {}, gameTitle(record.game)),
    h(
      "p",
      { class: "hist-summary" },
      tn("history.matches_played", record.matches),
      " · ",
      tn("history.wins", record.wins),
      " · ",
      t("history.average_place", { place: numberText(record.average_place) }),
    ),
    figures.length
      ? h(
          "div",
          { class: "hist-scroll" },
          h(
            "table",
            { class: "hist-table" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.col_figure")), h("th", { scope: "col", class: "num" }, t("history.col_total")), h("th", { scope: "col", class: "num" }, t("history.col_per_match")))),
            h("tbody", {}, figures),
          ),
        )
      : null,
  );
}

function games() {
  if (!page.games.length) return null;
  return panel(t("history.by_game"), "player-games", h("div", { class: "hist-games" }, page.games.map(gameRecord)));
}

function matchRow(match) {
  return h(
    "li",
    { class: "hist-match", "data-testid": "player-match" },
    h(
      "div",
      { class: "hist-match-head" },
      h("strong", {}, gameTitle(match.game)),
      h("span", { class: "muted small" }, dateText(match.finished_at)),
      match.rated ? h("span", { class: "chip small" }, t("history.rated")) : null,
      match.code ? h("a", { class: "btn small", href: `/r/${encodeURIComponent(match.code)}/replay`, "data-testid": "player-replay" }, t("history.replay")) : null,
    ),
    h(
      "ol",
      { class: "hist-seats" },
      byPlace(match.seats).map((seat) =>
        h(
          "li",
          { class: seat.you || seat.public_id === publicId ? "hist-me" : "" },
          h("span", { class: "hist-place" }, t("history.place", { place: seat.place })),
          " ",
          seatLink(seat),
          seat.score !== null ? h("span", { class: "muted small" }, ` ${t("history.score", { score: numberText(seat.score) })}`) : null,
        ),
      ),
    ),
  );
}

function matchList() {
  const body = matches.length
    ? h("ol", { class: "hist-matches", "data-testid": "player-matches" }, matches.map(matchRow))
    : h("p", { class: "muted small" }, t("history.no_matches"));
  const more = next
    ? h("button", { class: "btn", type: "button", "data-testid": "player-older", disabled: loadingOlder, onclick: loadOlder }, t("history.older"))
    : null;
  return panel(t("history.matches"), "player-history", body, more);
}

function draw() {
  if (failure) {
    const text = failure.code === "profile_not_found" ? t("history.not_found") : errorText(failure);
    root.replaceChildren(h("div", { class: "panel hist-notice", "data-testid": "player-missing" }, h("p", {}, text), h("a", { class: "btn", href: "/" }, t("history.to_lobby"))));
    return;
  }
  if (!page) return;
  document.title = `Coven — ${page.profile.name}`;
  root.replaceChildren(
    header(),
    h("div", { class: "hist-grid" }, h("div", { class: "hist-col" }, ratings(), versusPanel(), games()), h("div", { class: "hist-col" }, matchList())),
  );
}

async function loadOlder() {
  if (!next || loadingOlder) return;
  loadingOlder = true;
  draw();
  try {
    const older = await api("GET", `/api/profiles/${encodeURIComponent(publicId)}/matches?before=${encodeURIComponent(next)}`);
    matches = matches.concat(older.matches);
    next = older.next;
  } catch (err) {
    failure = err;
  }
  loadingOlder = false;
  draw();
}

async function myVersus() {
  if (page.profile.you || !holdsProfile() || !page.public_profiles) return null;
  const me = await api("GET", "/api/profile").catch(() => null);
  if (!me || !me.public_id) return null;
  return api("GET", `/api/profiles/${encodeURIComponent(me.public_id)}/versus/${encodeURIComponent(publicId)}`).catch(() => null);
}

async function main() {
  await initI18n();
  onLanguageChange(draw);
  try {
    page = await api("GET", `/api/profiles/${encodeURIComponent(publicId)}`);
    matches = page.history.matches;
    next = page.history.next;
    versus = await myVersus();
  } catch (err) {
    failure = err;
  }
  root.setAttribute("aria-busy", "false");
  draw();
}

main();
