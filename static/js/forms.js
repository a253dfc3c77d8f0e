// What the lobby and room forms check before sending, and server refusals in the reader's words.

import { has, t } from "./i18n.js";

// The server (app/text.py) refuses a name with nothing visible: no letter, digit, punctuation
// or symbol once control and format characters and whitespace are gone.
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** The name as typed, trimmed; "" when nothing in it is visible (blank, spaces, controls). */
export function typedName(raw) {
  const name = String(raw || "").trim();
  return VISIBLE.test(name) ? name : "";
}

/** A refusal as a sentence to show, by its stable code: an ApiError of `api()` (status, code,
 * message) or an `error` message of the socket (code, message). */
export function errorText(err) {
  const code = err && err.code;
  // Validation errors name their field first ("name: …", app/main.py).
  if (code === "validation_error" && /^name\b/.test(err.message || "")) return t("lobby.name_refused");
  const key = `room.error_${code}`;
  if (code && has(key)) return t(key);
  // Never the server's English message: a code this client does not know yet reads as a refusal.
  return t("error.refused");
}
