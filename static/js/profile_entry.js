// The lobby's way in to profiles: "Profile settings" for a browser holding one; otherwise
// "sign in with a passkey" (secure pages only) and "keep a profile". A browser without the
// profile cookie makes no request for it.

import { clear, h, toast } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { holdsProfile, passkeyErrorText, passkeysPossible, signInWithPasskey } from "./profile.js";

const box = document.getElementById("profile-entry");

function draw(held) {
  clear(box);
  if (held) {
    box.append(h("a", { href: "/profile", "data-testid": "profile-settings-link" }, t("profile.settings_link")));
    return;
  }
  box.append(h("span", { class: "muted" }, t("profile.entry_question")));
  if (passkeysPossible()) {
    box.append(h("button", { class: "btn small", type: "button", "data-testid": "passkey-sign-in", onclick: passkeySignIn }, t("profile.passkey_sign_in")));
  }
  box.append(h("a", { href: "/profile", "data-testid": "keep-profile-link" }, t("profile.entry_keep")));
}

async function passkeySignIn() {
  try {
    const profile = await signInWithPasskey();
    toast(t("profile.signed_in", { name: profile.name }));
    draw(true);
  } catch (err) {
    toast(passkeyErrorText(err), "error");
  }
}

/** Draws the entry (after the page's translations are loaded). */
export function showProfileEntry() {
  if (!box) return;
  draw(holdsProfile());
  onLanguageChange(() => draw(holdsProfile()));
}
