// A game's leaderboard (/leaderboard/{game}): listed profiles rated in that game, best rating
// first (GET /api/leaderboard/{game}), with links to the other games' boards. A server whose
// operator turned public profiles off says so instead.

import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./forms.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";
import { gameTitle, numberText } from "./match_figures.js";

const root = document.getElementById("leaderboard");
const game = root.dataset.game;

let board = null;
let games = [];
let failure = null;

function otherGames() {
  const others = games.filter((g) => g.id !== game);
  if (!others.length) return null;
  return h(
    "nav",
    { class: "hist-tabs", "aria-label": t("leaderboard.other_games") },
    others.map((g) => h("a", { class: "btn small", href: `/leaderboard/${encodeURIComponent(g.id)}` }, gameTitle(g.id))),
  );
}

function table() {
  if (!board.entries.length) return h("p", { class: "muted", "data-testid": "leaderboard-empty" }, t("leaderboard.empty"));
  return h(
    "div",
    { class: "hist-scroll" },
    h(
      "table",
      { class: "hist-table hist-board", "data-testid": "leaderboard-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", class: "num" }, t("leaderboard.col_rank")),
          h("th", { scope: "col" }, t("leaderboard.col_player")),
          h("th", { scope: "col", class: "num", title: t("history.rating_help") }, t("leaderboard.col_rating")),
          h("th", { scope: "col", class: "num" }, t("leaderboard.col_matches")),
        ),
      ),
      h(
        "tbody",
        {},
        board.entries.map((entry) =>
          h(
            "tr",
            { "data-testid": "leaderboard-row" },
            h("td", { class: "num" }, numberText(entry.rank, 0)),
            h("th", { scope: "row" }, h("a", { href: `/p/${encodeURIComponent(entry.public_id)}` }, entry.name)),
            h("td", { class: "num" }, h("strong", {}, numberText(entry.ordinal))),
            h("td", { class: "num" }, numberText(entry.matches, 0)),
          ),
        ),
      ),
    ),
  );
}

function draw() {
  const title = t("leaderboard.title", { game: gameTitle(game) });
  document.title = `Coven — ${title}`;
  if (failure) {
    const text = failure.code === "leaderboards_off" ? t("leaderboard.off") : errorText(failure);
    root.replaceChildren(h("div", { class: "panel hist-notice", "data-testid": "leaderboard-missing" }, h("p", {}, text), h("a", { class: "btn", href: "/" }, t("history.to_lobby"))));
    return;
  }
  if (!board) return;
  root.replaceChildren(
    h("div", { class: "hist-head" }, h("h1", {}, title)),
    otherGames(),
    h("section", { class: "panel hist-panel" }, table(), h("p", { class: "muted small" }, t("leaderboard.how"))),
  );
}

async function main() {
  await initI18n();
  onLanguageChange(draw);
  try {
    [board, games] = await Promise.all([api("GET", `/api/leaderboard/${encodeURIComponent(game)}`), api("GET", "/api/games").catch(() => [])]);
  } catch (err) {
    failure = err;
  }
  root.setAttribute("aria-busy", "false");
  draw();
}

main();
