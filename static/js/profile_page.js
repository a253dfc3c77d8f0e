// The profile settings page (/profile): keep a profile or sign in; then rename, private or
// listed, use on another device (a one-time device link with its QR code, or a passkey),
// download everything, sign out of this browser, delete for good.

import { api } from "./api.js";
import { clear, copyText, h, toast } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { initI18n, onLanguageChange, t, tn } from "./i18n.js";
import {
  addPasskey,
  held,
  keepProfile,
  myProfile,
  passkeyErrorText,
  passkeysPossible,
  profilePage,
  signInWithPasskey,
} from "./profile.js";

const state = {
  profile: null,
  link: null, // {url, svg, expires_at}: the device link made on this page
  confirmingDelete: false,
  nameError: "",
  typed: null, // what the name field holds (kept across redraws)
};

function failed(err) {
  toast(errorText(err), "error");
}

function section(title, ...children) {
  return h("section", { class: "panel profile-section" }, h("h2", {}, title), ...children);
}

function draw() {
  const body = clear(document.getElementById("profile-body"));
  if (!state.profile) {
    body.append(drawSignedOut());
    return;
  }
  const profile = state.profile;
  body.append(
    h(
      "p",
      { class: "profile-hello", "data-testid": "profile-hello" },
      t("profile.held_as", { name: profile.name }), " ",
      h("a", { href: profilePage(profile), "data-testid": "profile-page-link" }, t("profile.your_page")),
    ),
    drawName(profile),
    drawPrivacy(profile),
    drawDevices(profile),
    drawData(),
  );
}

function drawSignedOut() {
  const input = h("input", { id: "new-name", maxlength: 40, autocomplete: "nickname", "data-testid": "new-name", value: state.typed || "", oninput: (e) => { state.typed = e.target.value; } });
  return h(
    "div",
    { class: "stack", "data-testid": "no-profile" },
    section(
      t("profile.keep_title"),
      h("p", { class: "muted small" }, t("profile.keep_help_page")),
      h(
        "form",
        { class: "keep-form", novalidate: true, onsubmit: (event) => { event.preventDefault(); keep(input.value); } },
        h("label", { class: "field" }, h("span", {}, t("profile.name")), input),
        h("button", { class: "btn primary", type: "submit", "data-testid": "keep-profile-button" }, t("profile.keep")),
      ),
      h("p", { class: "error small", role: "alert" }, state.nameError),
    ),
    section(
      t("profile.sign_in_title"),
      passkeysPossible()
        ? h("button", { class: "btn", type: "button", "data-testid": "passkey-sign-in", onclick: passkeySignIn }, t("profile.passkey_sign_in"))
        : h("p", { class: "muted small" }, t("profile.passkeys_need_https")),
      h("p", { class: "muted small" }, t("profile.device_link_hint")),
    ),
  );
}

function drawName(profile) {
  const input = h("input", { id: "profile-name", "aria-label": t("profile.name"), maxlength: 40, autocomplete: "nickname", value: state.typed ?? profile.name, "data-testid": "profile-name", oninput: (e) => { state.typed = e.target.value; } });
  return section(
    t("profile.name"),
    h(
      "form",
      { class: "keep-form", novalidate: true, onsubmit: (event) => { event.preventDefault(); rename(input.value); } },
      input,
      h("button", { class: "btn", type: "submit", "data-testid": "rename" }, t("profile.rename")),
    ),
    h("p", { class: "error small", role: "alert", "data-testid": "name-error" }, state.nameError),
  );
}

function drawPrivacy(profile) {
  const choice = (listed, label, testid) =>
    h(
      "label",
      {},
      h("input", { type: "radio", name: "listed", value: String(listed), checked: profile.listed === listed, "data-testid": testid, onchange: () => setListed(listed) }),
      " ",
      h("span", {}, label),
    );
  return section(
    t("profile.who_sees"),
    h("fieldset", { class: "choice-row" }, h("legend", { class: "sr-only" }, t("profile.who_sees")),
      choice(true, t("profile.listed"), "listed-yes"),
      choice(false, t("profile.private"), "listed-no")),
    profile.public_profiles ? null : h("p", { class: "muted small" }, t("profile.public_off")),
  );
}

function drawDevices(profile) {
  const link = state.link;
  return section(
    t("profile.devices_title"),
    h("p", { class: "muted small" }, t("profile.device_link_help")),
    h("button", { class: "btn", type: "button", "data-testid": "make-device-link", onclick: makeLink }, link ? t("profile.device_link_again") : t("profile.device_link_make")),
    link
      ? h(
          "div",
          { class: "device-share", "data-testid": "device-share" },
          h("img", { class: "device-qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.svg)}`, width: 168, height: 168, alt: t("profile.device_qr"), "data-testid": "device-qr" }),
          h(
            "div",
            { class: "stack" },
            h("input", { id: "device-url", readonly: true, value: link.url, "aria-label": t("profile.device_link"), "data-testid": "device-url" }),
            h("button", { class: "btn small", type: "button", onclick: copyLink }, t("room.copy_link")),
            h("p", { class: "muted small" }, t("profile.device_link_valid", { time: timeText(link.expires_at) })),
            h("p", { class: "warn small" }, t("profile.device_link_warning")),
          ),
        )
      : null,
    h("h3", {}, t("profile.passkeys_title")),
    h("p", { class: "muted small", "data-testid": "passkey-count" }, tn("profile.passkey_count", profile.passkeys)),
    passkeysPossible()
      ? h("button", { class: "btn", type: "button", "data-testid": "add-passkey", onclick: registerPasskey }, t("profile.add_passkey"))
      : h("p", { class: "muted small" }, t("profile.passkeys_need_https")),
  );
}

function drawData() {
  return section(
    t("profile.data_title"),
    h("p", {}, h("a", { class: "btn", href: "/api/profile/export", download: "coven-profile.json", "data-testid": "export" }, t("profile.export"))),
    h("p", { class: "muted small" }, t("profile.sign_out_help")),
    h("button", { class: "btn", type: "button", "data-testid": "sign-out", onclick: signOut }, t("profile.sign_out")),
    state.confirmingDelete
      ? h(
          "div",
          { class: "confirm-delete", role: "alertdialog", "aria-labelledby": "delete-question", "data-testid": "confirm-delete" },
          h("p", { id: "delete-question", class: "warn" }, t("profile.delete_question")),
          h(
            "div",
            { class: "button-row" },
            h("button", { class: "btn danger", type: "button", "data-testid": "delete-yes", onclick: deleteProfile }, t("profile.delete_yes")),
            h("button", { class: "btn", type: "button", "data-testid": "delete-no", onclick: () => { state.confirmingDelete = false; draw(); } }, t("profile.delete_no")),
          ),
        )
      : h("button", { class: "btn danger", type: "button", "data-testid": "delete", onclick: () => { state.confirmingDelete = true; draw(); document.querySelector("[data-testid=delete-no]").focus(); } }, t("profile.delete")),
  );
}

function timeText(seconds) {
  return new Intl.DateTimeFormat(document.documentElement.lang || "en", { timeStyle: "short" }).format(new Date(seconds * 1000));
}

// -- actions ------------------------------------------------------------------------------------

async function keep(raw) {
  const name = typedName(raw);
  state.nameError = name ? "" : t("lobby.name_blank");
  if (name) {
    try {
      state.profile = await keepProfile(name);
      state.typed = null;
    } catch (err) {
      state.nameError = errorText(err);
    }
  }
  draw();
}

async function passkeySignIn() {
  try {
    state.profile = await signInWithPasskey();
    toast(t("profile.signed_in", { name: state.profile.name }));
  } catch (err) {
    toast(passkeyErrorText(err), "error");
  }
  draw();
}

async function rename(raw) {
  const name = typedName(raw);
  state.nameError = name ? "" : t("lobby.name_blank");
  if (name) {
    try {
      state.profile = await api("PATCH", "/api/profile", { body: { name } });
      state.typed = null;
      toast(t("profile.renamed"));
    } catch (err) {
      state.nameError = errorText(err);
    }
  }
  draw();
}

async function setListed(listed) {
  try {
    state.profile = await api("PATCH", "/api/profile", { body: { listed } });
  } catch (err) {
    failed(err);
  }
  draw();
}

async function makeLink() {
  try {
    state.link = await api("POST", "/api/profile/device-links");
  } catch (err) {
    failed(err);
  }
  draw();
}

async function copyLink() {
  if (await copyText(document.getElementById("device-url"))) toast(t("room.copied"));
}

async function registerPasskey() {
  try {
    const count = await addPasskey();
    state.profile = { ...state.profile, passkeys: count };
    toast(t("profile.passkey_added"));
  } catch (err) {
    toast(passkeyErrorText(err), "error");
  }
  draw();
}

async function signOut() {
  try {
    await api("POST", "/api/profile/signout");
    state.profile = held(null);
    state.link = null;
    toast(t("profile.signed_out"));
  } catch (err) {
    failed(err);
  }
  draw();
}

async function deleteProfile() {
  try {
    await api("DELETE", "/api/profile");
    state.profile = held(null);
    state.link = null;
    state.confirmingDelete = false;
    toast(t("profile.deleted"));
  } catch (err) {
    failed(err);
  }
  draw();
}

async function main() {
  await initI18n();
  state.profile = await myProfile();
  onLanguageChange(draw);
  draw();
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
