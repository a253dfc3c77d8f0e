// The form that sets a group chat's webhook (issue 20): which chat (Discord, Slack, Matrix
// through hookshot, ntfy) and its address, Save and Remove, a refusal in words. The room page
// shows it to the table's host (webhook_settings.js), the circle page to the circle's keeper
// (circle.js); both talk to `{path}` (GET/PUT/DELETE …/webhook) with the seat's token or the
// profile's cookie. The address is its setter's secret: only she gets it back from the server.

import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./forms.js";
import { t } from "./i18n.js";

export const FORMATS = ["discord", "slack", "matrix", "ntfy"];

// What each chat's webhook address looks like (a hint in the empty field, not a translation).
const EXAMPLES = {
  discord: "https://discord.com/api/webhooks/…",
  slack: "https://hooks.slack.com/services/…",
  matrix: "https://hookshot.example.org/webhook/…",
  ntfy: "https://ntfy.sh/…",
};

let styled = false;

function linkStyles() {
  if (styled || document.querySelector('link[data-coven-css="webhooks.css"]')) return;
  styled = true;
  const href = new URL("../css/webhooks.css", import.meta.url).href;
  document.head.append(h("link", { rel: "stylesheet", href, "data-coven-css": "webhooks.css" }));
}

/**
 * A webhook form for `path`, sending `token` as the bearer (the host's seat) or nothing (the
 * profile's cookie goes by itself). `explainKey` introduces it, under its own title unless
 * `heading` is false (a panel that has one). Returns `{ node, load, draw,
 * busy }`: `load()` asks the server (resolves to its answer, or null when it failed), `draw()`
 * draws it again in the current language, `busy()` is true while the reader types in it.
 */
export function createWebhookForm({ path, token, explainKey, heading = true }) {
  linkStyles();
  const node = h("div", { class: "webhook-form", "data-testid": "webhook-form" });
  const state = {
    info: null, // the server's answer: {set, editable, format?, lang?, url?}
    format: "discord",
    url: "",
    error: "", // the last refusal, in words
    note: "", // the i18n key of what the last click did (saved, removed)
    sending: false,
  };

  async function call(method, body) {
    return api(method, path, { token, body });
  }

  async function load() {
    try {
      state.info = await call("GET");
    } catch {
      state.info = null;
      return null;
    }
    if (state.info.set) {
      state.format = state.info.format || state.format;
      state.url = state.info.url || "";
    }
    draw();
    return state.info;
  }

  async function save(event) {
    event.preventDefault();
    const url = state.url.trim();
    if (!url) {
      state.error = t("webhook.url_needed");
      draw();
      return;
    }
    state.sending = true;
    state.error = "";
    draw();
    try {
      state.info = await call("PUT", { url, format: state.format, lang: document.documentElement.lang || "en" });
      state.url = state.info.url || url;
      state.note = "webhook.saved";
    } catch (err) {
      state.error = errorText(err);
      state.note = "";
    }
    state.sending = false;
    draw();
  }

  async function remove() {
    state.sending = true;
    state.error = "";
    draw();
    try {
      await call("DELETE");
      state.info = { ...state.info, set: false };
      state.url = "";
      state.note = "webhook.removed";
    } catch (err) {
      state.error = errorText(err);
    }
    state.sending = false;
    draw();
  }

  function formatPicker() {
    const select = h(
      "select",
      {
        id: "webhook-format",
        "data-testid": "webhook-format",
        disabled: state.sending,
        onchange: (event) => {
          state.format = event.target.value;
          draw();
        },
      },
      FORMATS.map((name) => h("option", { value: name }, t(`webhook.format_${name}`))),
    );
    select.value = state.format;
    return select;
  }

  function urlInput() {
    return h("input", {
      id: "webhook-url",
      type: "url",
      inputmode: "url",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 2000,
      value: state.url,
      placeholder: EXAMPLES[state.format],
      "aria-describedby": "webhook-help webhook-error",
      "data-testid": "webhook-url",
      disabled: state.sending,
      oninput: (event) => {
        state.url = event.target.value;
      },
    });
  }

  function status() {
    if (state.info && state.info.set) {
      const chat = t(`webhook.format_${state.info.format || state.format}`);
      return h("p", { class: "webhook-status on small", "data-testid": "webhook-status" }, t("webhook.on", { chat }));
    }
    return h("p", { class: "webhook-status muted small", "data-testid": "webhook-status" }, t("webhook.off"));
  }

  function draw() {
    const form = h(
      "form",
      { class: "webhook-fields", novalidate: true, onsubmit: save },
      h("label", { class: "field", for: "webhook-format" }, h("span", { class: "small" }, t("webhook.format")), formatPicker()),
      h("label", { class: "field", for: "webhook-url" }, h("span", { class: "small" }, t("webhook.url")), urlInput()),
      h("p", { class: "muted small webhook-help", id: "webhook-help" }, t(`webhook.help_${state.format}`)),
      h(
        "div",
        { class: "button-row" },
        h("button", { class: "btn primary", type: "submit", "data-testid": "webhook-save", disabled: state.sending }, t("webhook.save")),
        state.info && state.info.set
          ? h("button", { class: "btn", type: "button", "data-testid": "webhook-remove", disabled: state.sending, onclick: remove }, t("webhook.remove"))
          : null,
      ),
      h("p", { class: "error small", id: "webhook-error", role: "alert", "data-testid": "webhook-error" }, state.error),
    );
    const focused = node.contains(document.activeElement) ? document.activeElement.id : null;
    const parts = [
      heading ? h("h3", { class: "webhook-title" }, t("webhook.title")) : null,
      h("p", { class: "muted small" }, t(explainKey)),
      status(),
      state.note && !state.error ? h("p", { class: "small webhook-note", role: "status", "data-testid": "webhook-note" }, t(state.note)) : null,
      form,
      h("p", { class: "muted small webhook-secret" }, t("webhook.secret")),
    ];
    node.replaceChildren(...parts.filter(Boolean));
    if (focused) document.getElementById(focused)?.focus();
  }

  return {
    node,
    load,
    draw,
    busy: () => node.contains(document.activeElement),
  };
}
