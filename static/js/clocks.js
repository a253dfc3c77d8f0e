// Turn clocks on the table: a chip for each seat that owes a decision, counting down to the
// time its clock runs out (`state.clock.due[seat]`, epoch seconds by the server's clock).
// Live pace counts down "0:42" (urgent-looking in its last 10 s); correspondence reads
// "due in 19 h" / "due in 35 min". The page learns the server's time from the socket's first
// message (`{"type": "clock", "now"}`: `setServerNow`), so a computer whose clock is off still
// counts right. One timer for the whole page updates every chip's text each second; nothing
// else is redrawn.

import { h } from "./dom.js";
import { useStylesheet } from "./table.js";

useStylesheet("clocks.css");

let offset = 0; // the server's clock minus this computer's (seconds)

/** The server said its time is `now` (epoch seconds). */
export function setServerNow(now) {
  if (typeof now === "number" && Number.isFinite(now)) offset = now - Date.now() / 1000;
}

/** The server's time now (epoch seconds), as this page best knows it. */
export function serverNow() {
  return Date.now() / 1000 + offset;
}

/** "0:42", "4:59", "1:02:09": a live clock's time left. */
export function countdownText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** What a clock due at `due` says at `now`: a countdown (live), "due in 19 h" (correspondence:
 * minutes under an hour, hours under two days, then days, so always two or more). */
export function clockText(t, due, pace, now = serverNow()) {
  const left = due - now;
  if (pace !== "correspondence") return countdownText(left);
  if (left <= 0) return t("room.clock_overdue");
  if (left < 3600) return t("room.clock_due_minutes", { n: Math.max(1, Math.ceil(left / 60)) });
  if (left < 48 * 3600) return t("room.clock_due_hours", { n: Math.floor(left / 3600) });
  return t("room.clock_due_days", { n: Math.floor(left / 86400) });
}

// Live clocks look urgent in their last 10 s, correspondence ones in their last hour.
const URGENT = { live: 10, correspondence: 3600 };

let words = (key) => key; // the page's translate function, from the last chip made
let timer = null;

/**
 * A clock chip (class `turn-clock`, `data-testid` = `testid`): `due` (server epoch seconds)
 * and `pace` from the state's `clock`; `label` is read out and shown on hover. It keeps itself
 * up to date until it leaves the page.
 */
export function clockChip(t, { due, pace, label, testid, total = null }) {
  words = t;
  const dataset = { due: String(due), pace };
  // A whole turn's length, when known: never more left than that, even while this page's idea
  // of the server's time lags (its one "clock" message was read late on a busy computer).
  if (total) dataset.total = String(total);
  const chip = h("span", { class: "chip turn-clock", "data-testid": testid, title: label, role: "timer", "aria-label": label, dataset });
  paint(chip, serverNow());
  if (timer === null) timer = setInterval(tick, 1000);
  return chip;
}

function paint(chip, now) {
  const due = Number(chip.dataset.due);
  if (chip.dataset.total) now = Math.max(now, due - Number(chip.dataset.total));
  const pace = chip.dataset.pace;
  const text = clockText(words, due, pace, now);
  if (chip.textContent !== text) chip.textContent = text;
  const left = due - now;
  chip.classList.toggle("urgent", left <= (URGENT[pace] ?? URGENT.live));
  chip.classList.toggle("up", left <= 0);
}

function tick() {
  const chips = document.querySelectorAll(".turn-clock[data-due]");
  if (!chips.length) {
    clearInterval(timer); // the next chip starts it again
    timer = null;
    return;
  }
  const now = serverNow();
  for (const chip of chips) paint(chip, now);
}
