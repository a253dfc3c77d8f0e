// The replay page (/r/{code}/replay): a finished match stepped through with the game's own
// renderer, read-only (no legal actions), every hand shown through the seat switcher.
// The server replays the match (app/replay.py): GET /api/rooms/{code}/replay is the timeline
// (who acted, every event), /replay/steps?start=&count= every seat's view at a few steps.

import { api, ApiError, seats as seatStore } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText } from "./forms.js";
import { has, initI18n, onLanguageChange, t } from "./i18n.js";
import { logLine } from "./log_lines.js";
import { openExportForm, replayProof } from "./proof.js";
import { loadRenderer } from "./renderers.js";

const CHUNK = 10; // steps fetched at once (each holds a view per seat)
// Steps a fresh renderer is shown before the one jumped to (a round of any game is shorter).
const WARM_STEPS = 30;
const root = document.getElementById("replay");
const code = root.dataset.code;
// A room's replay, or (/replay/open, no code) an exported match opened from a file (proof.js).
let base = `/api/rooms/${encodeURIComponent(code)}/replay`;
const path = (rest) => `${base}${rest}`;

const page = {
  timeline: null, // GET /replay
  step: 0, // the step asked for
  shown: null, // the step drawn
  shownSeat: undefined, // through whose eyes it was drawn
  seat: null, // whose eyes: a seat number, or null for the spectator's view
  views: new Map(), // step -> {views, spectator, to_move, result}
  chunks: new Map(), // first step of a chunk -> its request
  renderer: null,
  drawing: Promise.resolve(),
};
window.coven = Object.assign(window.coven || {}, { replay: page });

const el = (id) => document.getElementById(id);
const seatRecord = (seat) => (page.timeline ? page.timeline.seats.find((s) => s.seat === seat) : null) || null;
// (a deleted profile's seat is "a former player" in the page's language)
const recordName = (record) => (record.former ? t("room.former_player") : record.name);
const seatName = (seat) => (seatRecord(seat) ? recordName(seatRecord(seat)) : t("room.seat_n", { n: seat + 1 }));
// Everyone is at the table in a replay: no presence to show but bots.
const seatInfo = (seat) => {
  const record = seatRecord(seat);
  return record ? { ...record, connected: true, away: false } : null;
};

function gameTitle() {
  const key = `game.${page.timeline.game}.title`;
  return has(key) ? t(key) : page.timeline.title;
}

// -- the views, a chunk at a time ----------------------------------------------------------------
function chunk(start) {
  if (!page.chunks.has(start)) {
    const request = api("GET", path(`/steps?start=${start}&count=${CHUNK}`)).then((data) => {
      for (const step of data.steps) page.views.set(step.step, step);
    });
    request.catch(() => page.chunks.delete(start)); // a failed chunk is asked again next time
    page.chunks.set(start, request);
  }
  return page.chunks.get(start);
}

async function viewsAt(step) {
  if (!page.views.has(step)) await chunk(step - (step % CHUNK));
  return page.views.get(step);
}

function prefetch(step) {
  // The neighbours in the direction people usually go: the next chunk, and the one before.
  const start = step - (step % CHUNK);
  if (start + CHUNK <= page.timeline.last) chunk(start + CHUNK).catch(() => {});
  if (start > 0) chunk(start - CHUNK).catch(() => {});
}

const eventsFor = (events, seat) => events.filter((e) => !("@to" in e) || (seat !== null && e["@to"].includes(seat)));

function message(step, views) {
  const info = page.timeline.steps[step];
  const seat = page.seat;
  return {
    type: "state",
    version: info.version,
    seat,
    view: seat === null ? views.spectator : views.views[seat],
    to_move: views.to_move,
    legal: [], // read-only: nothing can be played from a replay
    events: eventsFor(info.events, seat),
    result: views.result,
  };
}

// -- drawing a step ------------------------------------------------------------------------------
async function draw() {
  const step = page.step;
  const seat = page.seat;
  if (step === page.shown && seat === page.shownSeat) return; // already drawn (queued twice)
  const views = await viewsAt(step);
  if (step !== page.step || seat !== page.seat) return; // asked for another meanwhile
  if (step !== page.shown + 1 || seat !== page.shownSeat) {
    // A jump, or another seat's eyes: a renderer remembers what it was shown before (the
    // round's cauldron passes, who took what), so a new one is shown the steps before this one
    // first, as if it had been stepped here: the panels it builds from earlier moves are full,
    // and what it marks as new is what this step changed.
    const from = Math.max(0, step - WARM_STEPS);
    const warm = await Promise.all(Array.from({ length: step - from }, (_, k) => viewsAt(from + k)));
    if (step !== page.step || seat !== page.seat) return;
    await freshRenderer();
    warm.forEach((before, k) => page.renderer.render({ ...message(from + k, before), quiet: true }));
  }
  page.renderer.render(message(step, views));
  page.shown = step;
  page.shownSeat = seat;
  renderStep();
  prefetch(step);
}

async function freshRenderer() {
  // The old renderer's table and its card-text panel go with it.
  for (const panel of document.querySelectorAll(".detail-panel")) panel.remove();
  const old = el("table");
  const root = h("div", { id: "table", class: old.className, "data-testid": "table" });
  old.replaceWith(root);
  page.renderer = await loadRenderer(page.timeline.game, {
    root,
    t,
    act: () => {}, // no legal actions are ever offered
    seatName,
    seatInfo,
    mySeat: () => page.seat,
    rematch: () => {},
  });
}

function redraw() {
  page.drawing = page.drawing.then(draw).catch((err) => showNotice(errorText(err)));
  return page.drawing;
}

function go(step) {
  const last = page.timeline.last;
  const next = Math.max(0, Math.min(last, step));
  if (next === page.step && page.shown === next) return;
  page.step = next;
  renderControls();
  redraw();
}

function renderStep() {
  const step = page.step;
  const info = page.timeline.steps[step];
  el("replay-actor").textContent = step === 0
    ? t("replay.setup")
    : info.bot
      ? t("replay.acted_bot", { name: seatName(info.seat) })
      : t("replay.acted", { name: seatName(info.seat) });
  const lines = step === 0 ? [{ type: "match_started" }] : eventsFor(info.events, page.seat);
  const list = clear(el("replay-log"));
  for (const event of lines) {
    const text = logLine(page.renderer, event);
    if (text) list.append(h("li", { class: `log-${event.type}` }, text));
  }
  if (!list.children.length) list.append(h("li", { class: "muted" }, t("replay.nothing_said")));
  root.dataset.shown = String(page.shown);
  root.dataset.shownSeat = page.shownSeat === null ? "spectator" : String(page.shownSeat);
}

// The address says which step through whose eyes (#step=12&seat=1), so a moment can be shared.
function remember() {
  const seat = page.seat === null ? "spectator" : page.seat;
  history.replaceState(null, "", `${location.pathname}${location.search}#step=${page.step}&seat=${seat}`);
}

function recalled() {
  const params = new URLSearchParams(location.hash.slice(1));
  const step = Number.parseInt(params.get("step") ?? "", 10);
  const seat = params.get("seat");
  const number = Number.parseInt(seat ?? "", 10);
  return {
    step: Number.isInteger(step) ? Math.max(0, Math.min(page.timeline.last, step)) : null,
    seat: seat === "spectator" ? null : Number.isInteger(number) && number >= 0 && number < page.timeline.players ? number : undefined,
  };
}

function renderControls() {
  remember();
  const { step } = page;
  const last = page.timeline.last;
  el("replay-step").textContent = t("replay.step_of", { step, last });
  const slider = el("replay-slider");
  slider.max = String(last);
  slider.value = String(step);
  slider.setAttribute("aria-label", t("replay.slider"));
  slider.setAttribute("aria-valuetext", t("replay.step_of", { step, last }));
  const buttons = { "replay-first": ["replay.first", step === 0], "replay-prev": ["replay.prev", step === 0], "replay-next": ["replay.next", step === last], "replay-last": ["replay.last", step === last] };
  for (const [id, [key, off]] of Object.entries(buttons)) {
    const button = el(id);
    button.disabled = off;
    button.title = t(key);
    button.setAttribute("aria-label", t(key));
  }
  root.dataset.step = String(step);
  root.dataset.last = String(last);
  root.dataset.seat = page.seat === null ? "spectator" : String(page.seat);
}

function renderSeats() {
  const box = clear(el("replay-seats"));
  const choice = (seat, label, testid) => h(
    "button",
    {
      class: `btn small ${page.seat === seat ? "primary" : ""}`,
      type: "button",
      "aria-pressed": String(page.seat === seat),
      "data-testid": testid,
      onclick: () => {
        if (page.seat === seat) return;
        page.seat = seat;
        renderSeats();
        renderControls();
        redraw();
      },
    },
    label,
  );
  for (const record of page.timeline.seats) box.append(choice(record.seat, recordName(record), `replay-seat-${record.seat}`));
  box.append(choice(null, t("replay.spectator_view"), "replay-seat-spectator"));
}

function renderAll() {
  el("room-title").textContent = `${gameTitle()} · ${t("replay.title")}`;
  renderSeats();
  renderControls();
  if (page.shown !== null) {
    page.renderer.render(message(page.shown, page.views.get(page.shown)));
    renderStep();
  }
}

function showNotice(text) {
  const notice = el("replay-notice");
  notice.hidden = false;
  clear(notice).append(h("p", {}, text), code ? h("a", { class: "btn", href: `/r/${encodeURIComponent(code)}` }, t("replay.back_to_room")) : null);
}

// -- controls --------------------------------------------------------------------------------------
function wireControls() {
  el("replay-first").addEventListener("click", () => go(0));
  el("replay-prev").addEventListener("click", () => go(page.step - 1));
  el("replay-next").addEventListener("click", () => go(page.step + 1));
  el("replay-last").addEventListener("click", () => go(page.timeline.last));
  el("replay-slider").addEventListener("input", (event) => go(Number(event.target.value)));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // The slider steps itself with the arrows; a text field keeps its keys.
    if (target && (target.id === "replay-slider" || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: CHUNK, PageUp: -CHUNK };
    if (event.key in moves) go(page.step + moves[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(page.timeline.last);
    else return;
    event.preventDefault();
  });
}

async function opened() {
  // /replay/open: the viewer waits for a file (proof.js posts it), then shows it like a room's.
  el("room-title").textContent = t("proof.open_title");
  document.body.dataset.ready = "1";
  const file = await new Promise((resolve) => openExportForm(el("replay-open"), resolve));
  el("replay-open").hidden = true;
  document.body.dataset.ready = "0";
  base = `/api/replays/${encodeURIComponent(file.key)}`;
  return { document: file.document, name: file.name };
}

async function main() {
  await initI18n();
  let source = { code };
  const verifyNow = location.hash.includes("verify"); // the end screen's "Check it"
  try {
    if (code) {
      // A match still running has no replay: say so without asking for one.
      const room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
      if (room.status !== "finished") throw new ApiError(409, "not_finished", "the match is not over");
    } else {
      source = await opened();
    }
    page.timeline = await api("GET", path(""));
  } catch (err) {
    el("room-title").textContent = t("replay.title");
    showNotice(errorText(err));
    document.body.dataset.ready = "1";
    return;
  }
  // A player sees the match through her own eyes first; anyone may switch to any seat.
  const mine = seatStore.get(code);
  page.seat = mine && Number.isInteger(mine.seat) && mine.seat < page.timeline.players ? mine.seat : 0;
  const asked = recalled(); // a shared link's step and seat
  if (asked.seat !== undefined) page.seat = asked.seat;
  if (asked.step !== null) page.step = asked.step;
  el("table").hidden = false;
  el("replay-controls").hidden = false;
  el("replay-log-panel").hidden = false;
  wireControls();
  const proof = () => replayProof(el("replay-proof"), source);
  const verify = proof();
  onLanguageChange(() => {
    renderAll();
    proof();
  });
  renderAll();
  await redraw();
  document.body.dataset.ready = "1";
  if (verifyNow) verify.click();
}

main().catch((err) => console.error(err));
