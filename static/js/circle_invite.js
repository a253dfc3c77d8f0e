// A circle's invite link (/c#<code>): the code is in the fragment, which no browser sends to a
// server; this page posts it in a body. It says which circle the link opens and joins it; a
// visitor without a profile keeps one first (a name is enough).

import { api, heldSeats, playerName } from "./api.js";
import { keepInvite } from "./circle_invites.js";
import { clear, h } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { initI18n, onLanguageChange, t, tn } from "./i18n.js";

const code = decodeURIComponent(location.hash.replace(/^#/, ""));
let seen = null; // what the link opens: {name, members, member, public_id}
let refusal = null; // why it opens nothing
let profile = null;

function openCircle(publicId) {
  location.href = `/circles/${encodeURIComponent(publicId)}`;
}

async function join(button, error, nameInput) {
  error.textContent = "";
  button.disabled = true;
  try {
    if (!profile) {
      const name = typedName(nameInput.value);
      if (!name) {
        error.textContent = t("lobby.name_blank");
        button.disabled = false;
        nameInput.focus();
        return;
      }
      // This browser's guest seats come along, like anywhere a profile is kept.
      profile = await api("POST", "/api/profile", { body: { name, seats: heldSeats() } });
      playerName.set(name);
    }
    const circle = await api("POST", "/api/circle-invite/join", { body: { code } });
    keepInvite(circle.public_id, { code, invite_id: circle.invite_id });
    openCircle(circle.public_id);
  } catch (err) {
    error.textContent = errorText(err);
    button.disabled = false;
  }
}

function render() {
  const root = clear(document.getElementById("circle-invite"));
  if (refusal || !seen) {
    const text = refusal ? errorText(refusal) : t("invite.no_code");
    root.append(
      h("h1", {}, t("invite.refused_title")),
      h("p", { "data-testid": "invite-refused" }, text),
      h("p", {}, h("a", { class: "btn primary", href: "/" }, t("room.back_to_lobby"))),
    );
    return;
  }
  root.append(
    h("p", { class: "muted" }, t("invite.invited")),
    h("h1", { "data-testid": "invite-circle-name" }, seen.name),
    h("p", { class: "muted small" }, tn("home.members", seen.members)),
  );
  if (seen.member) {
    root.append(
      h("p", {}, t("invite.already")),
      h("p", {}, h("a", { class: "btn primary", href: `/circles/${encodeURIComponent(seen.public_id)}`, "data-testid": "open-circle" }, t("invite.open"))),
    );
    return;
  }
  const error = h("p", { class: "error", role: "alert" });
  const nameInput = profile
    ? null
    : h("input", { maxlength: 40, autocomplete: "nickname", value: playerName.get(), "data-testid": "invite-name" });
  const button = h("button", { class: "btn primary", type: "submit", "data-testid": "join-circle" }, profile ? t("invite.join") : t("invite.keep_and_join"));
  const form = h(
    "form",
    { class: "join-form", novalidate: true },
    profile
      ? h("p", {}, t("invite.as", { name: profile.name }))
      : [h("p", { class: "muted small" }, t("invite.profile_help")), h("label", { class: "field" }, h("span", {}, t("lobby.your_name")), nameInput)],
    button,
    error,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    join(button, error, nameInput);
  });
  root.append(form);
}

async function main() {
  await initI18n();
  const holdsProfile = document.getElementById("circle-invite").dataset.profile === "1";
  profile = holdsProfile ? await api("GET", "/api/profile").catch(() => null) : null;
  if (code) {
    try {
      seen = await api("POST", "/api/circle-invite", { body: { code } });
    } catch (err) {
      refusal = err;
    }
  }
  render();
  onLanguageChange(render);
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
