// The lobby: pick a game and its options, open a table, see the open public tables.

import { api, createRoom, playerName } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { showHome } from "./home.js";
import { has, initI18n, onLanguageChange, t } from "./i18n.js";
import { showProfileEntry } from "./profile_entry.js";
import { clockWords } from "./setup_text.js";

const POLL_MS = 3000;
let games = [];
let chosen = null;
let rooms = [];
// The table's own setup, the same for every game: a turn clock (seconds; 0 = none) at a live
// pace or by correspondence (12 h, 1 day, 3 days per move), what happens when a seat's time
// runs out ("move": a bot plays that move; "seat": the seat goes to a bot for good), and how
// many seats (0 = the game's maximum). Kept across a game switch or a language switch.
const LIVE_CLOCKS = [30, 60, 120, 300];
const CORRESPONDENCE_CLOCKS = [43200, 86400, 259200];
const CLOCK_RULES = ["move", "seat"];
const setup = { turnSeconds: 0, seats: 0, clockRule: "move" };

function gameText(game, what) {
  const key = `game.${game.id}.${what}`;
  return has(key) ? t(key) : what === "title" ? game.title : "";
}

function optionText(gameId, name, what, fallback) {
  const key = `game.${gameId}.option.${name}.${what}`;
  return has(key) ? t(key) : fallback;
}

function renderGames() {
  const list = document.getElementById("game-list");
  for (const node of [...list.querySelectorAll(".game-choice")]) node.remove();
  for (const game of games) {
    list.append(
      h(
        "label",
        { class: "game-choice" },
        h("input", {
          type: "radio",
          name: "game",
          value: game.id,
          checked: chosen && chosen.id === game.id,
          onchange: () => {
            chosen = game;
            renderOptions();
          },
        }),
        h(
          "span",
          { class: "game-text" },
          h("strong", {}, gameText(game, "title")),
          h("span", { class: "muted small" }, t("lobby.players", { min: game.min_players, max: game.max_players })),
          h("span", { class: "small" }, gameText(game, "description")),
        ),
      ),
    );
  }
}

function clockText(seconds) {
  if (!seconds) return t("lobby.clock_off");
  if (seconds < 60) return t("lobby.clock_seconds", { n: seconds });
  if (seconds < 3600) return t("lobby.clock_minutes", { n: seconds / 60 });
  if (seconds % 86400) return t("lobby.clock_hours", { n: seconds / 3600 });
  return seconds === 86400 ? t("lobby.clock_day") : t("lobby.clock_days", { n: seconds / 86400 });
}

function clockChoice(seconds) {
  return h(
    "label",
    {},
    h("input", {
      type: "radio",
      name: "turn-clock",
      value: seconds,
      checked: seconds === setup.turnSeconds,
      "data-testid": `turn-clock-${seconds}`,
      onchange: (event) => {
        setup.turnSeconds = Number(event.target.value);
        for (const input of document.querySelectorAll('input[name="clock-rule"]')) input.disabled = !setup.turnSeconds;
      },
    }),
    " ",
    clockText(seconds),
  );
}

// The choices of one pace under its name ("Live", "Correspondence (across days)").
function clockGroup(name, seconds) {
  return h("div", { class: "clock-group", role: "group", "aria-label": name }, h("span", { class: "clock-group-name" }, name), seconds.map(clockChoice));
}

function tableSetup() {
  const counts = [];
  for (let n = chosen.min_players; n <= chosen.max_players; n += 1) counts.push(n);
  if (!counts.includes(setup.seats)) setup.seats = chosen.max_players;
  return [
    h(
      "fieldset",
      { class: "choice-row", dataset: { setup: "seats" } },
      h("legend", {}, t("lobby.seat_count")),
      counts.map((n) =>
        h(
          "label",
          {},
          h("input", {
            type: "radio",
            name: "seat-count",
            value: n,
            checked: n === setup.seats,
            "data-testid": `seat-count-${n}`,
            onchange: () => { setup.seats = n; },
          }),
          " ",
          String(n),
        ),
      ),
    ),
    h(
      "fieldset",
      { class: "choice-row", dataset: { setup: "clock" } },
      h("legend", {}, t("lobby.turn_clock")),
      clockChoice(0),
      clockGroup(t("lobby.pace_live"), LIVE_CLOCKS),
      clockGroup(t("lobby.pace_correspondence"), CORRESPONDENCE_CLOCKS),
      h("p", { class: "muted small" }, t("lobby.turn_clock_help")),
    ),
    h(
      "fieldset",
      { class: "choice-row", dataset: { setup: "clock-rule" } },
      h("legend", {}, t("lobby.clock_rule")),
      CLOCK_RULES.map((rule) =>
        h(
          "label",
          {},
          h("input", {
            type: "radio",
            name: "clock-rule",
            value: rule,
            checked: rule === setup.clockRule,
            disabled: !setup.turnSeconds,
            "data-testid": `clock-rule-${rule}`,
            onchange: (event) => { setup.clockRule = event.target.value; },
          }),
          " ",
          t(`lobby.clock_rule_${rule}`),
        ),
      ),
    ),
  ];
}

// Options are drawn from the game's JSON schema: enums become radio rows, booleans checkboxes.
function renderOptions() {
  const box = clear(document.getElementById("game-options"));
  if (!chosen) return;
  box.append(...tableSetup());
  const properties = (chosen.options && chosen.options.properties) || {};
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.enum) {
      box.append(
        h(
          "fieldset",
          { class: "choice-row", dataset: { option: name } },
          h("legend", {}, optionText(chosen.id, name, "label", schema.title || name)),
          schema.enum.map((value) =>
            h(
              "label",
              {},
              h("input", {
                type: "radio",
                name: `opt-${name}`,
                value,
                checked: value === schema.default,
                "data-testid": `option-${name}-${value}`,
              }),
              " ",
              optionText(chosen.id, name, value, value),
            ),
          ),
        ),
      );
    } else if (schema.type === "boolean") {
      box.append(
        h(
          "label",
          { class: "check small", dataset: { option: name } },
          h("input", { type: "checkbox", name: `opt-${name}`, checked: !!schema.default }),
          " ",
          optionText(chosen.id, name, "label", schema.description || name),
        ),
      );
    }
  }
}

function readOptions() {
  const options = {};
  const properties = (chosen.options && chosen.options.properties) || {};
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.enum) {
      const picked = document.querySelector(`input[name="opt-${name}"]:checked`);
      // A radio's value is text: send the schema's own value (Seasons' edition is 1 or 2).
      if (picked) options[name] = schema.enum.find((v) => String(v) === picked.value) ?? picked.value;
    } else if (schema.type === "boolean") {
      const box = document.querySelector(`input[name="opt-${name}"]`);
      if (box) options[name] = box.checked;
    }
  }
  return options;
}

function renderRooms() {
  const list = clear(document.getElementById("room-list"));
  document.getElementById("room-list-empty").hidden = rooms.length > 0;
  for (const room of rooms) {
    const taken = room.seats.length;
    const game = games.find((g) => g.id === room.game);
    list.append(
      h(
        "li",
        { class: "room-row" },
        h(
          "a",
          { href: `/r/${encodeURIComponent(room.code)}`, class: "room-link" },
          h("strong", {}, room.name),
          h("span", { class: "muted small" }, game ? gameText(game, "title") : room.title),
          h("span", { class: "badge" }, t("lobby.seats_taken", { taken, total: room.seat_count })),
          room.turn_seconds ? h("span", { class: "badge pace", "data-testid": "room-pace", dataset: { pace: room.pace || "" } }, clockWords(t, room.turn_seconds)) : null,
          room.status === "playing" ? h("span", { class: "badge live" }, t("lobby.playing")) : null,
        ),
      ),
    );
  }
}

async function pollRooms() {
  try {
    rooms = await api("GET", "/api/rooms");
    renderRooms();
  } catch {
    /* the next poll will try again */
  }
  setTimeout(pollRooms, POLL_MS);
}

// A table opened for a circle (``/?circle=<id>``, from the circle's page): its members find it
// on their home page. Only a member may; the server checks it again.
let forCircle = null;

async function readCircle() {
  const id = new URLSearchParams(location.search).get("circle");
  if (!id) return;
  try {
    forCircle = (await api("GET", `/api/circles/${encodeURIComponent(id)}`)).circle;
  } catch {
    return;
  }
  // A circle's table is for its members: private unless the host says otherwise.
  document.querySelector('input[name="visibility"][value="private"]').checked = true;
  renderForCircle();
}

function renderForCircle() {
  const note = clear(document.getElementById("for-circle"));
  note.hidden = !forCircle;
  if (!forCircle) return;
  note.append(
    t("lobby.for_circle", { name: forCircle.name }),
    " ",
    h("button", { class: "btn small ghost", type: "button", "data-testid": "not-for-circle", onclick: () => { forCircle = null; renderForCircle(); } }, t("lobby.not_for_circle")),
  );
}

async function main() {
  await initI18n();
  showProfileEntry();
  const nameInput = document.getElementById("host-name");
  nameInput.value = playerName.get();
  games = await api("GET", "/api/games");
  chosen = games[0] || null;
  renderGames();
  renderOptions();
  onLanguageChange(() => {
    const options = chosen ? readOptions() : {};
    renderGames();
    renderOptions();
    for (const [name, value] of Object.entries(options)) {
      const input = document.querySelector(`input[name="opt-${name}"][value="${value}"]`);
      if (input) input.checked = true;
    }
    renderRooms();
    renderForCircle();
  });
  document.getElementById("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("create-error");
    error.textContent = "";
    // A blank (or spaces-and-controls-only) name is refused here, before anything is sent.
    const name = typedName(nameInput.value);
    if (!chosen || !name) {
      error.textContent = chosen ? t("lobby.name_blank") : t("lobby.need_name");
      nameInput.focus();
      return;
    }
    const visibility = document.querySelector('input[name="visibility"]:checked').value;
    const button = event.submitter || document.querySelector('[data-testid="create-room"]');
    button.disabled = true;
    try {
      const code = await createRoom({
        game: chosen.id,
        visibility,
        options: readOptions(),
        name,
        turnSeconds: setup.turnSeconds,
        clockRule: setup.turnSeconds ? setup.clockRule : "move",
        seats: setup.seats,
        circle: forCircle ? forCircle.public_id : null,
        rematchBy: document.querySelector('input[name="rematch_by"]:checked').value,
      });
      location.href = `/r/${encodeURIComponent(code)}`;
    } catch (err) {
      error.textContent = errorText(err);
      button.disabled = false;
    }
  });
  pollRooms();
  await Promise.all([readCircle(), showHome().catch((err) => console.error(err))]);
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
