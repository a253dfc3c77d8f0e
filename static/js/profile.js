// Profiles in the browser (issue 19): keep one with a name, sign in with a passkey, and the
// "keep a profile" offer on a match's end screen. The secret that holds a profile is an
// HttpOnly cookie: no script here ever sees it. Seat tokens are sent in request bodies only.

import { api, heldSeats } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { t } from "./i18n.js";

// The page says whether the browser sent the profile cookie (base.html, `data-profile`): a
// guest's page never asks for a profile it does not have.
export function holdsProfile() {
  return document.body.dataset.profile === "1";
}

/** Record that this browser now holds a profile (`profile`) or none (null); returns it. */
export function held(profile) {
  document.body.dataset.profile = profile ? "1" : "0";
  return profile;
}

/** The profile this browser holds ({public_id, name, listed, passkeys, …}), or null. */
export async function myProfile() {
  if (!holdsProfile()) return null;
  try {
    return await api("GET", "/api/profile");
  } catch (err) {
    if (err.status === 401) return held(null); // signed out elsewhere, or deleted
    throw err;
  }
}

/** Keep a profile named `name`; this browser's guest seats become its. */
export async function keepProfile(name) {
  return held(await api("POST", "/api/profile", { body: { name, seats: heldSeats() } }));
}

export function profilePage(profile) {
  return `/p/${encodeURIComponent(profile.public_id)}`;
}

// -- passkeys (WebAuthn) -----------------------------------------------------------------------

const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** Whether this page can use passkeys: a secure context (https, or localhost) on a host name
 * (an IP address cannot be a WebAuthn relying party). Elsewhere the device link does the job. */
export function passkeysPossible() {
  return Boolean(window.isSecureContext && window.PublicKeyCredential && !IP_HOST.test(location.hostname));
}

function fromB64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The server's options are WebAuthn JSON (base64url strings); browsers without the JSON
// helpers need the binary fields as buffers.
function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromB64url(json.challenge),
    user: { ...json.user, id: fromB64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromB64url(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function credentialJson(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toB64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
  };
}

/** Register a passkey for the profile this browser holds; the number it now has. */
export async function addPasskey() {
  const options = await api("POST", "/api/profile/passkeys/options");
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const added = await api("POST", "/api/profile/passkeys", { body: { credential: credentialJson(credential) } });
  return added.passkeys;
}

/** Sign this browser in with a passkey it (or its phone) holds; the profile. */
export async function signInWithPasskey() {
  const options = await api("POST", "/api/passkeys/login/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return held(await api("POST", "/api/passkeys/login", { body: { credential: credentialJson(credential), seats: heldSeats() } }));
}

/** A passkey ceremony the person closed or the browser refused, in words. */
export function passkeyErrorText(err) {
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) return t("profile.passkey_cancelled");
  if (err && err.name && !err.code) return t("profile.passkey_browser_failed");
  return errorText(err);
}

// -- the end screen: keep a profile, or file the match under the one held ----------------------

const offer = {
  code: null,
  profile: undefined, // undefined: not asked yet; null: none held
  asking: null,
  claimed: false,
  typed: null,
  error: "",
  busy: false,
};

async function askProfile() {
  offer.asking ||= myProfile().catch(() => null);
  offer.profile = await offer.asking;
}

/**
 * Adds "keep a profile" to the end screen `end` of room `code` for the seat this browser holds
 * (`mine`: {seat, token}; `name`: its seat's name). A browser holding a profile gets its seat
 * claimed quietly (the match enters its history) and a link to its page instead. Idempotent:
 * called again after every redraw of the end screen.
 */
export function offerKeepProfile(end, { code, mine, name }) {
  if (!end || !mine || end.querySelector("[data-testid=keep-profile]")) return;
  if (offer.code !== code) Object.assign(offer, { code, claimed: false, typed: null, error: "" });
  const box = h("section", { class: "keep-profile", "data-testid": "keep-profile" });
  end.append(box);
  if (offer.profile === undefined) {
    askProfile().then(() => redrawOffer(code, mine, name));
    return;
  }
  drawOffer(box, code, mine, name);
}

function redrawOffer(code, mine, name) {
  const box = document.querySelector("[data-testid=keep-profile]");
  if (box) drawOffer(box, code, mine, name);
}

function drawOffer(box, code, mine, name) {
  const hadFocus = box.contains(document.activeElement);
  clear(box);
  const profile = offer.profile;
  if (profile) {
    if (!offer.claimed) {
      offer.claimed = true;
      api("POST", "/api/profile/claim", { body: { seats: [{ room: code, token: mine.token }] } }).catch(() => {});
    }
    box.append(
      h("p", { class: "small", "data-testid": "kept-profile" }, t("profile.saved_to", { name: profile.name }), " ",
        h("a", { href: profilePage(profile), "data-testid": "my-profile-link" }, t("profile.your_page"))),
    );
    return;
  }
  if (offer.typed === null) offer.typed = name || "";
  const input = h("input", {
    id: "keep-name",
    maxlength: 40,
    autocomplete: "nickname",
    value: offer.typed,
    "data-testid": "keep-name",
    "aria-label": t("profile.name"),
    oninput: (event) => { offer.typed = event.target.value; },
  });
  box.append(
    h("h3", {}, t("profile.keep_title")),
    h("p", { class: "muted small" }, t("profile.keep_help")),
    h(
      "form",
      { class: "keep-form", novalidate: true, onsubmit: (event) => { event.preventDefault(); keepFromEnd(code, mine, name); } },
      input,
      h("button", { class: "btn primary", type: "submit", disabled: offer.busy, "data-testid": "keep-profile-button" }, t("profile.keep")),
    ),
    h("p", { class: "error small", role: "alert", "data-testid": "keep-error" }, offer.error),
  );
  if (hadFocus) input.focus();
}

async function keepFromEnd(code, mine, name) {
  const typed = typedName(offer.typed);
  offer.error = typed ? "" : t("lobby.name_blank");
  if (typed) {
    offer.busy = true;
    try {
      offer.profile = await keepProfile(typed); // this room's seat is among the seats sent
      offer.claimed = true;
    } catch (err) {
      offer.error = errorText(err);
    }
    offer.busy = false;
  }
  redrawOffer(code, mine, name);
}
