// The room page (/r/{code}): seats, presence, invite and rejoin links, host tools, chat, the
// table log, and the live table drawn by the game's renderer (static/js/games/{game}.js), whose
// boards this page fills with what every game shows alike: each seat's turn clock, "away" or
// "bot playing", and the host's hand-over; and the banner that gives a player her seat back.

import { api, playerName, rejoinUrl, roomUrl, seats as seatStore } from "./api.js";
import { createChat } from "./chat.js";
import { RoomClient } from "./client.js";
import { clockChip, setServerNow } from "./clocks.js";
import { clear, copyText, h, toast } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { has, initI18n, onLanguageChange, t } from "./i18n.js";
import { logLine } from "./log_lines.js";
import { createTableLog } from "./table_log.js";
import { showMatchFigures } from "./match_figures.js";
import { offerKeepProfile } from "./profile.js";
import { createProfileSeat } from "./profile_seat.js";
import { contributions, newContribution } from "./contribution.js";
import { endScreenProof, ensureContribution, renderWaitingProof } from "./proof.js";
import { createRematch } from "./rematch.js";
import { loadRenderer } from "./renderers.js";
import { clockRuleWords, clockWords, optionWords } from "./setup_text.js";
import { createTalk } from "./talk.js";
import { createTurnAlert } from "./turn_alert.js";

const code = document.getElementById("room").dataset.code;
const page = {
  room: null, // RoomInfo from GET /api/rooms/{code}
  seats: [], // SeatInfo list (from the room, then from presence messages)
  spectators: 0,
  mine: null, // {seat, token} held by this browser
  state: null, // the latest `state` message
  renderer: null,
  rendererLoading: null,
  client: null,
  log: null, // the table log: what this page was shown, history when wanted (table_log.js)
  botLevel: "random", // the level the host's next bot (or hand-over) gets
  joinError: "", // why the last join was refused (shown under the form)
  turnAlert: null, // title, sound and notification when this seat's turn comes (turn_alert.js)
  chat: null, // the chat lines and the message being sent (chat.js)
  talk: null, // chat and log at hand: the side column or the phone's drawer (talk.js)
  sideFolded: false, // the side panels were folded for the match (on a phone, once)
  rematch: null, // "Play again", and coming over to the new table (rematch.js)
  profileSeat: null, // "this is your seat — play here", for a seat taken on another device
};

// Bot levels the server offers (engine.bots.LEVELS), weakest first.
const BOT_LEVELS = ["random", "greedy", "strong"];

function botLevelName(level) {
  const names = {
    random: t("room.bot_level_random"),
    greedy: t("room.bot_level_greedy"),
    strong: t("room.bot_level_strong"),
  };
  return names[level] || level;
}

function botLevelPicker(testid = "bot-level") {
  const select = h(
    "select",
    {
      "data-testid": testid,
      "aria-label": t("room.bot_level"),
      onchange: (event) => { page.botLevel = event.target.value; },
    },
    ...BOT_LEVELS.map((level) => h("option", { value: level }, botLevelName(level))),
  );
  select.value = page.botLevel;
  return h("label", { class: "bot-level" }, h("span", { class: "muted small" }, t("room.bot_level")), " ", select);
}

window.coven = Object.assign(window.coven || {}, { page });

// -- seat token from a personal rejoin link: /r/{code}#seat=1&token=… ------------------------
function takeTokenFromHash() {
  if (!location.hash.includes("token=")) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = Number.parseInt(params.get("seat") ?? "", 10);
  if (token) seatStore.set(code, Number.isNaN(seat) ? null : seat, token);
  history.replaceState(null, "", location.pathname + location.search);
}

const isHost = () => page.mine && page.mine.seat === 0;
const seatInfo = (seat) => page.seats.find((s) => s.seat === seat) || null;

// Every name of a seat on this page (its list, the title, the chat, the game's renderer) comes
// from here: a deleted profile's seat is "a former player" in the page's language.
function seatName(seat) {
  const info = seatInfo(seat);
  if (!info) return t("room.seat_n", { n: seat + 1 });
  return info.former ? t("room.former_player") : info.name;
}

function gameTitle() {
  if (!page.room) return "";
  const key = `game.${page.room.game}.title`;
  return has(key) ? t(key) : page.room.title;
}

// -- seats, presence and the waiting room ------------------------------------------------------
function renderSeats() {
  const list = clear(document.getElementById("seats"));
  const room = page.room;
  if (!room) return;
  const playing = room.status !== "open";
  const count = playing ? page.seats.length : room.seat_count;
  for (let seat = 0; seat < count; seat += 1) {
    const info = seatInfo(seat);
    const me = page.mine && page.mine.seat === seat;
    if (!info) {
      list.append(h("li", { class: "seat free" }, h("span", { class: "dot empty", "aria-hidden": "true" }), h("span", { class: "muted" }, t("room.free_seat"))));
      continue;
    }
    const presence = info.bot ? "bot" : info.connected ? "on" : "off";
    const label = info.bot ? t("room.presence_bot") : info.connected ? t("room.presence_on") : t("room.presence_off");
    const canHandOver = canHandOverSeat(seat);
    // Before the start: the host empties a bot's seat or an absent player's; a player leaves.
    const canRemove = isHost() && !playing && seat !== 0 && (info.bot || !info.connected);
    const canLeave = me && !playing && seat !== 0;
    const canMoveUp = isHost() && !playing && seat >= 2; // the host's seat 0 stays hers
    list.append(
      h(
        "li",
        { class: `seat ${me ? "me" : ""}`, "data-testid": `seat-${seat}`, "data-connected": String(info.connected) },
        h("span", { class: `dot ${presence}`, title: label, role: "img", "aria-label": label }),
        h("span", { class: "seat-name" }, seatName(seat)),
        me ? h("span", { class: "badge you" }, t("room.you")) : null,
        seat === 0 ? h("span", { class: "badge" }, t("room.host")) : null,
        // (the seat's name already says "Bot n": the badge needs only the level)
        info.bot ? h("span", { class: "badge bot", title: `${t("room.bot")} · ${botLevelName(info.bot)}` }, botLevelName(info.bot)) : null,
        info.away ? h("span", { class: "badge away", "data-for-good": info.for_good ? "1" : null }, t(info.for_good ? "room.bot_for_good" : "room.away")) : null,
        room.status !== "finished" && seatPresence(info) === "away"
          ? h("span", { class: "badge seat-away", "data-testid": `seat-away-${seat}`, title: t("room.away_title") }, t("room.seat_away"))
          : null,
        seatClock(seat, `seat-clock-${seat}`),
        seatActions(
          canHandOver ? botLevelPicker(`bot-level-${seat}`) : null,
          canHandOver
            ? h("button", { class: "btn small", type: "button", "data-testid": `hand-to-bot-${seat}`, onclick: () => handToBot(seat) }, t("room.hand_to_bot"))
            : null,
          canRemove
            ? h("button", { class: "btn small", type: "button", "data-testid": `remove-seat-${seat}`, onclick: () => removeSeat(seat) }, t("room.remove_seat"))
            : null,
          canLeave ? h("button", { class: "btn small", type: "button", "data-testid": "leave-seat", onclick: leaveSeat }, t("room.leave_seat")) : null,
          canMoveUp
            ? h("button", { class: "btn small", type: "button", "data-testid": `move-up-${seat}`, title: t("room.move_up"), "aria-label": t("room.move_up"), onclick: () => moveSeat(seat, seat - 1) }, "↑")
            : null,
        ),
      ),
    );
  }
  renderSetup();
  renderSeatBanner();
  document.getElementById("spectators").textContent = page.spectators ? t("room.spectators", { count: page.spectators }) : "";
}

// -- who is at the table, and the turn clocks ------------------------------------------------
/** How a seat sits at the table: "bot" (a bot's own seat), "for_good" (the turn clock handed
 * it to a bot for good), "bot_playing" (the host handed it to a bot while she was away),
 * "away" (a person with no page open here), or "here". */
function seatPresence(info) {
  if (!info || info.connected === undefined) return "here";
  if (info.bot) return "bot";
  if (info.for_good) return "for_good";
  if (info.away) return "bot_playing";
  return info.connected ? "here" : "away";
}

const matchOn = () => Boolean(page.room && page.room.status === "playing" && page.state && !page.state.result);

// The host may hand a vanished player's seat to a bot, from the seat list or from her board.
function canHandOverSeat(seat) {
  return isHost() && Boolean(page.room) && page.room.status === "playing" && seatPresence(seatInfo(seat)) === "away";
}

/** The turn clock of a person's seat that owes a decision now (none for a seat a bot plays,
 * nor after the end): a chip counting down (clocks.js). */
function seatClock(seat, testid) {
  const clock = page.state && !page.state.result ? page.state.clock : null;
  const due = clock && clock.due ? clock.due[seat] : null;
  if (due === null || due === undefined) return null;
  if (!["here", "away"].includes(seatPresence(seatInfo(seat)))) return null;
  return clockChip(t, { due, pace: clock.pace, total: clock.turn_seconds, label: t("room.clock_label", { name: seatName(seat) }), testid });
}

/** What every game's board of `seat` shows after the game's own chips (table.js playerBoard):
 * its clock, whether its player is away or a bot plays for her, and the host's hand-over. */
function boardChips(seat) {
  if (!matchOn()) return [];
  const presence = seatPresence(seatInfo(seat));
  const words = {
    away: ["seat-away", `away-${seat}`, "room.seat_away"],
    bot_playing: ["bot-playing", `bot-playing-${seat}`, "room.away"],
    for_good: ["bot-for-good", `bot-for-good-${seat}`, "room.bot_for_good"],
  }[presence];
  return [
    seatClock(seat, `clock-${seat}`),
    words ? h("span", { class: `chip ${words[0]}`, "data-testid": words[1], title: presence === "away" ? t("room.away_title") : null }, t(words[2])) : null,
    canHandOverSeat(seat)
      ? h("button", { class: "btn small hand-over", type: "button", "data-testid": `hand-to-bot-board-${seat}`, onclick: () => handToBot(seat) }, t("room.hand_to_bot"))
      : null,
  ];
}

// Above the table, to a player whose seat a bot plays: one click takes it back (unless the turn
// clock handed it over for good, which it says instead).
function renderSeatBanner() {
  let box = document.getElementById("seat-banner");
  if (!box) {
    box = h("div", { id: "seat-banner", class: "seat-banner", "data-testid": "seat-banner", hidden: true });
    document.getElementById("table").before(box);
  }
  const info = page.mine ? seatInfo(page.mine.seat) : null;
  const presence = info && matchOn() ? seatPresence(info) : "here";
  const shown = presence === "for_good" || presence === "bot_playing" ? presence : "";
  if (box.dataset.shown === shown) return;
  box.dataset.shown = shown;
  clear(box).hidden = !shown;
  if (shown === "for_good") box.append(h("p", { role: "status" }, t("room.handed_for_good_note")));
  if (shown === "bot_playing") {
    box.append(
      h("p", { role: "status" }, t("room.bot_plays_for_you")),
      h("button", { class: "btn primary", type: "button", "data-testid": "take-back", onclick: takeBack }, t("room.take_back")),
    );
  }
}

async function takeBack(event) {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    const room = await api("POST", `/api/rooms/${encodeURIComponent(code)}/back`, { token: page.mine.token });
    page.room = room;
    page.seats = room.seats;
    toast(t("room.took_back"));
    renderAll();
    refreshClocks(); // her clock starts afresh
  } catch (err) {
    failed(err);
    button.disabled = false;
  }
}

// A seat taken back from a bot restarts its clock without a new version of the match (no
// `state` follows): read the state again and take its clocks.
async function refreshClocks() {
  if (!page.state || page.state.result) return;
  try {
    const message = await api("GET", `/api/rooms/${encodeURIComponent(code)}/state`, { token: page.mine ? page.mine.token : null });
    if (!page.state || message.version !== page.state.version) {
      page.client.applyState(message);
      return;
    }
    page.state.clock = message.clock;
    renderSeats();
    if (page.renderer) page.renderer.render(page.state);
  } catch {
    /* the next state brings the clocks */
  }
}

// A seat's own controls (hand over, remove, leave, move up) as one group at the end of its line:
// when the line is full the group wraps whole, never a lone "↑".
function seatActions(...controls) {
  const present = controls.filter(Boolean);
  return present.length ? h("span", { class: "seat-actions" }, ...present) : null;
}

// Once the match is on, the invite panel folds to its heading (the log and the chat get its
// room), and on a phone the seats panel too (the players' own areas show who sits where); a tap
// on a heading opens them again.
const FOLD_SIDE = "(max-width: 980px)";
function foldSidePanels(started) {
  if (!started || page.sideFolded) return;
  page.sideFolded = true;
  document.getElementById("invite-panel").open = false;
  if (window.matchMedia(FOLD_SIDE).matches) document.getElementById("seats-panel").open = false;
}

function renderWaiting() {
  const room = page.room;
  const waiting = document.getElementById("waiting");
  const started = room && room.status !== "open";
  foldSidePanels(Boolean(started && page.state));
  document.getElementById("room").classList.toggle("started", Boolean(started));
  waiting.hidden = Boolean(started && page.state);
  document.getElementById("table").hidden = !page.state;
  if (!room) return;
  const host = seatInfo(0);
  document.getElementById("room-title").textContent = host ? `${gameTitle()} · ${t("room.table_of", { name: host.former ? t("history.former") : host.name })}` : gameTitle();
  const heading = document.getElementById("table-title");
  heading.textContent = document.getElementById("room-title").textContent;
  heading.hidden = !waiting.hidden;
  document.getElementById("waiting-title").textContent = started ? t("room.loading_table") : t("room.waiting");
  const taken = page.seats.length;
  document.getElementById("room-status").textContent = started
    ? ""
    : t("room.seats_status", { taken, total: room.seat_count, min: room.min_players });

  const joinBox = document.getElementById("join-box");
  const typing = joinBox.querySelector("#join-name");
  const typed = typing ? typing.value : playerName.get();
  const hadFocus = typing && document.activeElement === typing;
  const join = clear(joinBox);
  if (!started && !page.mine && taken < room.seat_count) {
    // Presence updates redraw this box: keep what the visitor is typing.
    const input = h("input", { id: "join-name", maxlength: 40, required: true, autocomplete: "nickname", value: typed, "data-testid": "join-name" });
    join.append(
      h(
        "form",
        { class: "join-form", novalidate: true, onsubmit: (event) => { event.preventDefault(); joinSeat(input.value); } },
        h("label", { class: "field" }, h("span", {}, t("lobby.your_name")), input),
        h("button", { class: "btn primary", type: "submit", "data-testid": "join-button" }, t("room.take_seat")),
        h("p", { class: "error", role: "alert", "data-testid": "join-error" }, page.joinError),
      ),
      h("p", { class: "muted small" }, t("room.watching_hint")),
    );
    if (hadFocus) input.focus();
  } else if (!started && !page.mine) {
    join.append(h("p", { class: "muted" }, t("room.full")));
  }

  const hostBox = clear(document.getElementById("host-box"));
  // A rematch waiting for its players starts by itself: it says so (not "waiting for the host").
  const rematchNote = !started && page.rematch ? page.rematch.waitingNote() : null;
  if (!started && isHost()) {
    hostBox.append(
      h(
        "div",
        { class: "button-row" },
        botLevelPicker(),
        h("button", { class: "btn", type: "button", disabled: taken >= room.seat_count, "data-testid": "add-bot", onclick: addBot }, t("room.add_bot")),
        h("button", { class: "btn primary", type: "button", disabled: taken < room.min_players, "data-testid": "start", onclick: startMatch }, t("room.start")),
      ),
      page.rematch.hostRule(),
    );
    if (rematchNote) hostBox.append(rematchNote);
  } else if (!started && page.mine) {
    hostBox.append(rematchNote || h("p", { class: "muted" }, t("room.wait_for_host")));
  } else if (rematchNote) {
    hostBox.append(rematchNote);
  }
}

// The seed proof (proof.js): the commitment while the room waits; a seat whose listed part is
// not this browser's own sends it once.
function renderProof() {
  renderWaitingProof(document.getElementById("proof-box"), page.room, page.seats.length, page.mine ? page.mine.seat : null, code);
  ensureContribution(code, page.room, page.mine)
    .then((room) => {
      if (!room) return;
      page.room = room;
      page.seats = room.seats;
      renderProof();
    })
    .catch(() => {});
}

function renderLinks() {
  const invite = roomUrl(code);
  document.getElementById("invite-link").value = invite;
  // The waiting room shows the invite whole, with a QR code for phones (the server draws it
  // on the same link: templates/room.html).
  const box = document.getElementById("invite-box");
  box.hidden = !page.room || page.room.status !== "open";
  const link = document.getElementById("invite-url");
  link.textContent = invite;
  link.href = invite;
  document.getElementById("invite-qr-image").alt = t("room.invite_qr");
  // A loopback address reaches only this computer: say how friends can reach it.
  const host = new URL(invite).hostname;
  const loopback = host === "localhost" || host === "[::1]" || host.startsWith("127.");
  const hint = document.getElementById("loopback-hint");
  hint.hidden = !loopback;
  hint.textContent = loopback ? t("room.loopback_hint", { host }) : "";
  renderRejoin();
}

function renderRejoin() {
  const box = document.getElementById("rejoin-box");
  box.hidden = !page.mine;
  if (page.mine) document.getElementById("rejoin-link").value = rejoinUrl(code, page.mine.seat, page.mine.token);
}

function renderAll() {
  renderSeats();
  renderWaiting();
  renderProof();
  renderLinks();
  renderLog();
  if (page.renderer && page.state) page.renderer.render(page.state);
}

// -- host and seat actions over HTTP -----------------------------------------------------------
async function refreshRoom() {
  page.room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
  page.seats = page.room.seats;
  page.spectators = page.room.spectators;
}

function failed(err) {
  toast(errorText(err), "error");
}

async function joinSeat(typed) {
  // A blank name is refused here, before anything is sent.
  const name = typedName(typed);
  page.joinError = name ? "" : t("lobby.name_blank");
  if (!name) {
    renderWaiting();
    document.getElementById("join-name")?.focus();
    return;
  }
  try {
    const contribution = newContribution(); // this browser's part of the shuffle
    const joined = await api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { body: { name, contribution } });
    page.mine = { seat: joined.seat, token: joined.token };
    seatStore.set(code, joined.seat, joined.token);
    contributions.set(code, contribution);
    playerName.set(name);
    page.room = joined.room;
    page.seats = joined.room.seats;
    page.client.reconnectAs(joined.token);
    renderAll();
  } catch (err) {
    page.joinError = errorText(err);
    renderWaiting();
  }
}

async function addBot() {
  try {
    const added = await api("POST", `/api/rooms/${encodeURIComponent(code)}/bots`, { body: { level: page.botLevel }, token: page.mine.token });
    page.room = added.room;
    page.seats = added.room.seats;
    renderAll();
  } catch (err) {
    failed(err);
  }
}

async function handToBot(seat) {
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/bots`, { body: { level: page.botLevel, seat }, token: page.mine.token });
    toast(t("room.handed_to_bot", { name: seatName(seat) }));
  } catch (err) {
    failed(err);
  }
}

async function moveSeat(seat, to) {
  try {
    const room = await api("POST", `/api/rooms/${encodeURIComponent(code)}/seats/${seat}/move`, { body: { to }, token: page.mine.token });
    page.room = room;
    page.seats = room.seats;
    renderAll();
  } catch (err) {
    failed(err);
  }
}

async function removeSeat(seat) {
  try {
    const room = await api("DELETE", `/api/rooms/${encodeURIComponent(code)}/seats/${seat}`, { token: page.mine.token });
    page.room = room;
    page.seats = room.seats;
    renderAll();
  } catch (err) {
    failed(err);
  }
}

// This browser plays a seat its profile holds, taken from another device (profile_seat.js).
function playSeat(taken) {
  page.mine = { seat: taken.seat, token: taken.token };
  seatStore.set(code, taken.seat, taken.token);
  page.room = taken.room;
  page.seats = taken.room.seats;
  page.client.reconnectAs(taken.token);
  renderAll();
}

async function leaveSeat() {
  try {
    const room = await api("POST", `/api/rooms/${encodeURIComponent(code)}/leave`, { token: page.mine.token });
    seatStore.clear(code);
    page.mine = null;
    page.room = room;
    page.seats = room.seats;
    page.client.reconnectAs(null);
    renderAll();
  } catch (err) {
    failed(err);
  }
}

// The options chosen in the lobby, the turn clock, and (for a seated player) the turn alerts.
function renderSetup() {
  const room = page.room;
  let box = document.getElementById("room-setup");
  if (!box) {
    box = h("div", { id: "room-setup", class: "room-setup small", "data-testid": "room-setup" });
    document.getElementById("seat-tools").before(box);
  }
  clear(box);
  if (!room) return;
  const words = [...optionWords(t, has, room.game, room.options), `${t("room.turn_clock")}: ${clockWords(t, room.turn_seconds)}`];
  if (room.turn_seconds) words.push(`${t("room.clock_rule")}: ${clockRuleWords(t, room.clock_rule)}`);
  box.append(h("ul", { class: "muted setup-list", "data-testid": "room-options" }, words.map((w) => h("li", {}, w))));
  // (not one append with a null: the DOM's append writes a null out as the text "null")
  if (page.mine && page.turnAlert) box.append(page.turnAlert.controls());
}

async function startMatch() {
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/start`, { token: page.mine.token });
  } catch (err) {
    failed(err);
  }
}

// -- the table log (table_log.js) -------------------------------------------------------------
function describe(event) {
  return logLine(page.renderer, event);
}

function renderLog() {
  if (page.log) page.log.render();
}

// -- the live table ----------------------------------------------------------------------------
// The end screen (drawn by the game's renderer) offers the replay, to players and spectators.
function offerReplay() {
  const end = document.querySelector("#table [data-testid=game-over]");
  if (!end || end.querySelector("[data-testid=watch-replay]")) return;
  // In the language this page was opened in (`?lang=`), if any.
  const link = h("a", { class: "btn", href: `/r/${encodeURIComponent(code)}/replay${location.search}`, "data-testid": "watch-replay" }, t("replay.watch"));
  (end.querySelector(".button-row") || end).append(link);
}

// What the end screen offers beyond the game's own: the replay, (to a seated player) keeping
// a profile, or filing the match under the profile this browser holds (profile.js), and the
// match's figures per seat once recorded (match_figures.js).
function endScreenExtras() {
  offerReplay();
  const end = document.querySelector("#table [data-testid=game-over]");
  if (end && page.mine) offerKeepProfile(end, { code, mine: page.mine, name: seatName(page.mine.seat) });
  if (end) showMatchFigures(end, code);
  if (end && page.state) endScreenProof(end, page.state.fairness, code, page.mine ? page.mine.seat : null);
}

async function ensureRenderer() {
  if (page.renderer) return page.renderer;
  page.rendererLoading ||= loadRenderer(page.room.game, {
    root: document.getElementById("table"),
    t,
    act: (action) => {
      page.turnAlert.acted();
      return page.client.act(action);
    },
    seatName,
    seatInfo,
    boardChips,
    mySeat: () => (page.state ? page.state.seat : page.mine ? page.mine.seat : null),
    rematchControls: (label) => page.rematch.controls(label),
  });
  page.renderer = await page.rendererLoading;
  return page.renderer;
}

async function onState(message) {
  page.state = message;
  if (page.room && page.room.status === "open") page.room.status = message.result ? "finished" : "playing";
  if (message.seat !== null && message.seat !== undefined && page.mine && page.mine.seat !== message.seat) {
    page.mine.seat = message.seat;
    seatStore.set(code, message.seat, page.mine.token);
  }
  // (the state is enough to play or watch: what came before is read when wanted)
  page.log.shown(message);
  await ensureRenderer();
  page.talk.logLines((message.events || []).filter((event) => describe(event)).length);
  if (page.state !== message) return; // a newer message arrived while the renderer loaded
  renderSeats();
  renderWaiting();
  renderLog();
  page.renderer.render(message);
  page.turnAlert.update(message);
}

function setConnection(status) {
  const node = document.getElementById("conn");
  node.dataset.state = status;
  node.textContent = status === "open" ? t("conn.live") : status === "reconnecting" ? t("conn.reconnecting") : status === "connecting" ? t("conn.connecting") : status === "closed" ? t("conn.closed") : "";
  document.body.dataset.connection = status;
}

async function main() {
  // The room, the texts and the socket are asked for at once (each is a round trip to the
  // server, and none needs another's answer; the socket waits for the texts only, its status
  // line being in words). What the socket says before the room is in waits for it: below.
  const roomLoaded = refreshRoom();
  roomLoaded.catch(() => {}); // (awaited below, where a refusal is shown)
  await initI18n();
  takeTokenFromHash();
  page.mine = seatStore.get(code);
  page.rematch = createRematch({ code, page, isHost, redraw: () => renderAll(), failed });
  page.turnAlert = createTurnAlert({ t, code });
  page.talk = createTalk(code);
  page.log = createTableLog({
    code,
    t,
    describe,
    token: () => (page.mine ? page.mine.token : null),
    list: () => document.getElementById("log"),
  });
  page.profileSeat = createProfileSeat({ code, page, seatName, took: playSeat });
  const client = (page.client = new RoomClient(code, page.mine && page.mine.token));
  page.chat = createChat({
    client,
    mySeat: () => (page.mine ? page.mine.seat : null),
    // (a line keeps the name its seat had then, unless her profile was deleted since)
    speaker: (message) => (seatInfo(message.seat)?.former ? t("room.former_player") : message.name),
    onLine: (line) => page.talk.chatLine(line),
  });
  // Every message but the connection's status reads the room: until the page has drawn it,
  // they are held, in order.
  let held = [];
  const withRoom = (handle) => (message) => (held ? held.push(() => handle(message)) : handle(message));
  client
    // The server's time, which the turn clocks count down in (its first message).
    .on("clock", (message) => setServerNow(message.now))
    .on("status", (status) => {
      setConnection(status);
      // Back online: whatever move was in flight is answered by the fresh snapshot (or not at
      // all), so let the table accept clicks again.
      if (status === "open" && page.renderer && page.renderer.rejected) page.renderer.rejected();
    })
    .on("state", withRoom((message) => onState(message).catch((err) => console.error(err))))
    .on("gap", withRoom((gap) => page.log.gap(gap)))
    .on("presence", withRoom((message) => {
      const wasOpen = page.room.status === "open";
      // A seat taken back from a bot: its clock started afresh (no new state says so).
      const back = page.seats.some((old) => old.away && !(message.seats.find((s) => s.seat === old.seat) || {}).away);
      page.seats = message.seats;
      if (back) refreshClocks();
      page.spectators = message.spectators;
      if (message.fairness) page.room.fairness = message.fairness;
      if (message.status) page.room.status = message.status;
      if (wasOpen && message.status !== "open") refreshRoom().then(renderAll).catch(() => {});
      renderSeats();
      renderWaiting();
      renderProof();
      if (page.renderer && page.state) page.renderer.render(page.state);
    }))
    .on("chat", withRoom((message) => page.chat.receive(message)))
    .on("rematch", withRoom((message) => page.rematch.opened(message)))
    .on("rematch_rules", withRoom((message) => page.rematch.rulesChanged(message)))
    .on("seat", withRoom((message) => {
      // The host changed the seat order, or the start closed a gap: same token, new number.
      if (!page.mine || typeof message.seat !== "number") return;
      page.mine.seat = message.seat;
      seatStore.set(code, message.seat, page.mine.token);
      renderAll();
    }))
    .on("ack", withRoom((ack) => {
      // The move is committed; its `state` should follow. If the push got lost, re-sync.
      setTimeout(() => {
        if (client.version !== null && client.version < ack.version) client.resync().catch(() => {});
      }, 1500);
    }))
    .on("error", withRoom((message) => {
      if (page.chat.refused(message)) return; // shown beside the chat input, kept there
      if (page.renderer && page.renderer.rejected) page.renderer.rejected(message);
      page.turnAlert.rejected();
      toast(errorText(message), "error");
    }))
    .on("bad_token", withRoom(() => {
      // This browser's token no longer holds a seat here: watch instead.
      seatStore.clear(code);
      page.mine = null;
      toast(t("room.token_lost"), "error");
      client.reconnectAs(null);
      renderAll();
      page.profileSeat.check({ lost: true }); // her profile's seat, taken on another device?
    }))
    .on("no_room", withRoom(() => toast(t("room.not_found"), "error")));
  client.connect();
  try {
    await roomLoaded;
  } catch (err) {
    client.close();
    setConnection("idle");
    document.getElementById("waiting-title").textContent = err.status === 404 ? t("room.not_found") : errorText(err);
    document.getElementById("room-status").append(h("a", { href: "/" }, t("room.back_to_lobby")));
    return;
  }
  new MutationObserver(endScreenExtras).observe(document.getElementById("table"), { childList: true, subtree: true });

  document.getElementById("copy-invite").addEventListener("click", async () => {
    if (await copyText(document.getElementById("invite-link"))) toast(t("room.copied"));
  });
  document.getElementById("copy-invite-url").addEventListener("click", async () => {
    if (await copyText(document.getElementById("invite-link"))) toast(t("room.copied"));
  });
  document.getElementById("copy-rejoin").addEventListener("click", async () => {
    if (await copyText(document.getElementById("rejoin-link"))) toast(t("room.copied"));
  });
  onLanguageChange(() => {
    setConnection(client.status);
    renderAll();
    page.turnAlert.redraw();
    page.chat.redraw();
  });
  renderAll();
  document.body.dataset.ready = "1";
  const waited = held;
  held = null;
  for (const handle of waited) {
    try {
      handle();
    } catch (err) {
      console.error(err);
    }
  }
  // (a rematch's countdown and arrival are a comfort: the deadline and the Start button remain)
  page.rematch.load().catch(() => {});
  page.profileSeat.check();
}

main().catch((err) => console.error(err));
