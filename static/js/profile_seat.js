// A profile's seat on another device (issue 19). Seat tokens live in one browser; a browser
// that holds the profile (its cookie) but no working token for the seat the profile holds at
// this table is offered "This is your seat — play here", and takes it at once when it came
// from the home page's "your tables" (`/r/{code}#here`). The server gives this browser a
// fresh token; the other device's token stops working, its page watches and is offered the
// same one click to take the seat back.

import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { errorText } from "./forms.js";
import { onLanguageChange, t } from "./i18n.js";
import { holdsProfile } from "./profile.js";
import { useStylesheet } from "./table.js";

const HERE = "#here";

/**
 * `page` is the room page's state (`mine`: the seat this browser plays, or null);
 * `seatName(seat)` how the page names a seat; `took({seat, token, room})` makes the page play
 * the seat taken.
 */
export function createProfileSeat({ code, page, seatName, took }) {
  useStylesheet("profile.css");
  // Asked for by the link that opened the page: consumed by the first look, so a seat lost
  // later (taken back on the other device) is never taken again without a click.
  let wanted = location.hash === HERE;
  if (wanted) history.replaceState(null, "", location.pathname + location.search);
  const state = { seat: null, lost: false, busy: false, error: "" };
  const box = h("section", { class: "panel play-here", id: "play-here", "data-testid": "play-here", "aria-live": "polite", hidden: true });
  document.getElementById("table-area").prepend(box);

  function draw() {
    clear(box);
    box.hidden = state.seat === null || Boolean(page.mine);
    if (box.hidden) return;
    const name = seatName(state.seat);
    box.append(
      h("p", { "data-testid": "play-here-text" }, state.lost ? t("room.seat_elsewhere", { name }) : t("room.your_seat_here", { name })),
      h("button", { class: "btn primary", type: "button", disabled: state.busy, "data-testid": "play-here-button", onclick: playHere }, t("room.play_here")),
      h("p", { class: "muted small" }, t("room.play_here_hint")),
    );
    // (not one append with a null: the DOM's append writes a null out as the text "null")
    if (state.error) box.append(h("p", { class: "error small", role: "alert" }, state.error));
  }

  async function playHere() {
    if (state.seat === null || state.busy) return;
    state.busy = true;
    state.error = "";
    draw();
    try {
      const taken = await api("POST", `/api/rooms/${encodeURIComponent(code)}/seat-here`, { body: { seat: state.seat } });
      state.seat = null;
      took(taken);
      toast(t("room.playing_here"));
    } catch (err) {
      state.error = errorText(err);
    } finally {
      state.busy = false;
      draw();
    }
  }

  onLanguageChange(draw);

  return {
    /** Whether the profile holds a seat here this browser does not play; `lost`: this
     * browser's token just stopped working (the seat was taken on another device). */
    async check({ lost = false } = {}) {
      const take = wanted;
      wanted = false;
      if (page.mine || !holdsProfile()) return;
      let held;
      try {
        held = await api("GET", `/api/rooms/${encodeURIComponent(code)}/profile-seats`);
      } catch {
        return; // signed out meanwhile, or offline: the page simply watches
      }
      state.seat = held.seats.length ? held.seats[0] : null;
      state.lost = lost;
      if (state.seat !== null && take && !page.mine) await playHere();
      else draw();
    },
    draw,
  };
}
