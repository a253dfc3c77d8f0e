// The device link's page (/device#<code>): "Use the profile <name> here?" and one button. The
// code comes from the fragment (never sent to the server in a URL), leaves the address bar at
// once (kept for this tab only, so a reload still works) and travels in request bodies.

import { api, heldSeats } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText } from "./forms.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";
import { held, myProfile, profilePage } from "./profile.js";

const TAB_KEY = "coven:device-code";

const state = {
  code: "",
  offered: null, // {name}: whose profile the link gives
  current: null, // the profile this browser holds now, if any
  used: null, // the profile once the link is used
  error: "",
  busy: false,
};

function takeCode() {
  const fromHash = decodeURIComponent(location.hash.slice(1));
  if (fromHash) {
    sessionStorage.setItem(TAB_KEY, fromHash);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return fromHash || sessionStorage.getItem(TAB_KEY) || "";
}

function draw() {
  const body = clear(document.getElementById("device-body"));
  if (state.used) {
    body.append(
      h("p", { "data-testid": "device-done" }, t("profile.device_done", { name: state.used.name })),
      h("p", { class: "button-row" },
        h("a", { class: "btn primary", href: "/" }, t("room.back_to_lobby")),
        h("a", { class: "btn", href: profilePage(state.used), "data-testid": "profile-page-link" }, t("profile.your_page"))),
    );
    return;
  }
  if (state.error) {
    body.append(
      h("p", { class: "error", role: "alert", "data-testid": "device-error" }, state.error),
      h("p", { class: "muted small" }, t("profile.device_ask_again")),
      h("p", {}, h("a", { class: "btn", href: "/" }, t("room.back_to_lobby"))),
    );
    return;
  }
  if (!state.offered) {
    body.append(h("p", { class: "muted" }, t("profile.device_checking")));
    return;
  }
  body.append(h("p", { class: "device-question", "data-testid": "device-question" }, t("profile.device_question", { name: state.offered.name })));
  // (not one append with a null: the DOM's append writes a null out as the text "null")
  if (state.current) body.append(h("p", { class: "warn small", "data-testid": "device-switch" }, t("profile.device_switch", { name: state.current.name })));
  body.append(h("button", { class: "btn primary", type: "button", disabled: state.busy, "data-testid": "device-use", onclick: useLink }, t("profile.device_use")));
}

async function useLink() {
  state.busy = true;
  draw();
  try {
    state.used = held(await api("POST", "/api/device-links/use", { body: { code: state.code, seats: heldSeats() } }));
    sessionStorage.removeItem(TAB_KEY);
  } catch (err) {
    state.error = errorText(err);
  }
  state.busy = false;
  draw();
}

async function main() {
  await initI18n();
  onLanguageChange(draw);
  state.code = takeCode();
  draw();
  if (!state.code) {
    state.error = t("profile.device_no_code");
  } else {
    try {
      [state.offered, state.current] = await Promise.all([
        api("POST", "/api/device-links/peek", { body: { code: state.code } }),
        myProfile().catch(() => null),
      ]);
    } catch (err) {
      state.error = errorText(err);
      sessionStorage.removeItem(TAB_KEY);
    }
  }
  draw();
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
