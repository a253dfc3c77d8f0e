// A circle's page (/circles/{id}), for its members: the name (the keeper renames it), the
// members (the keeper removes one; anyone leaves), the invite link with its QR code (where this
// browser holds it; the keeper makes a new one), the tables open for it and a button to open
// one, its leaderboard per game and its recent matches; for the keeper, the group chat's
// webhook its tables post to (webhook_form.js).

import { api } from "./api.js";
import { forgetInvite, heldInvite, keepInvite } from "./circle_invites.js";
import { clear, copyText, h, toast } from "./dom.js";
import { errorText, typedName } from "./forms.js";
import { matchRow, openTableRow } from "./home.js";
import { has, initI18n, onLanguageChange, t, tn } from "./i18n.js";
import { createWebhookForm } from "./webhook_form.js";

const POLL_MS = 15000;
const circleId = document.getElementById("circle").dataset.circle;
let page = null;
// The invite link as the server showed it to this browser (url, svg), or why it is not shown.
let invite = null;
// The keeper's webhook form (made once: a redraw keeps what she typed), or null.
let webhook = null;

function gameTitle(id) {
  const key = `game.${id}.title`;
  return has(key) ? t(key) : id;
}

function panel(title, testid, ...body) {
  return h("section", { class: "panel circle-panel", "data-testid": testid }, h("h2", {}, title), ...body);
}

function refuse(err) {
  toast(errorText(err), "error");
}

async function act(method, path, body) {
  try {
    return await api(method, path, body === undefined ? {} : { body });
  } catch (err) {
    refuse(err);
    return undefined;
  }
}

function header() {
  const { circle } = page;
  const title = h("h1", { "data-testid": "circle-name" }, circle.name);
  const head = h(
    "div",
    { class: "circle-head" },
    title,
    h("span", { class: "muted" }, tn("home.members", circle.members)),
  );
  if (circle.keeper) {
    head.append(
      h(
        "button",
        {
          class: "btn small ghost",
          type: "button",
          "data-testid": "rename-circle",
          onclick: () => head.replaceWith(renameForm()),
        },
        t("circle.rename"),
      ),
    );
  }
  return head;
}

function renameForm() {
  const input = h("input", { value: page.circle.name, maxlength: 40, "aria-label": t("home.circle_name"), "data-testid": "circle-new-name" });
  const form = h(
    "form",
    { class: "circle-head copy-row", novalidate: true },
    input,
    h("button", { class: "btn primary", type: "submit" }, t("circle.rename_save")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = typedName(input.value);
    if (!name) return toast(t("room.error_bad_circle_name"), "error");
    if (await act("PATCH", `/api/circles/${circleId}`, { name })) await load();
    return undefined;
  });
  setTimeout(() => input.focus());
  return form;
}

function memberRow(member) {
  const name = member.listed || member.you
    ? h("a", { href: `/p/${encodeURIComponent(member.public_id)}` }, member.name)
    : h("span", {}, member.name);
  const row = h(
    "li",
    { class: "seat", "data-testid": "circle-member" },
    h("span", { class: "seat-name" }, name),
    member.keeper ? h("span", { class: "badge live" }, t("circle.keeper")) : null,
    member.you ? h("span", { class: "badge you" }, t("circle.you")) : null,
  );
  if (page.circle.keeper && !member.you) {
    row.append(
      h(
        "span",
        { class: "seat-actions" },
        h(
          "button",
          {
            class: "btn small",
            type: "button",
            "data-testid": "remove-member",
            onclick: async () => {
              if (!confirm(t("circle.remove_confirm", { name: member.name }))) return;
              const done = await act("DELETE", `/api/circles/${circleId}/members/${encodeURIComponent(member.public_id)}`);
              if (done !== undefined) await load();
            },
          },
          t("circle.remove"),
        ),
      ),
    );
  }
  return row;
}

function members() {
  return panel(
    t("circle.members"),
    "circle-members",
    h("ul", { class: "seats" }, page.members.map(memberRow)),
    h(
      "p",
      {},
      h(
        "button",
        {
          class: "btn small ghost",
          type: "button",
          "data-testid": "leave-circle",
          onclick: async () => {
            if (!confirm(t("circle.leave_confirm"))) return;
            if ((await act("POST", `/api/circles/${circleId}/leave`)) !== undefined) {
              forgetInvite(circleId);
              location.href = "/";
            }
          },
        },
        t("circle.leave"),
      ),
    ),
  );
}

async function renewInvite() {
  if (page.circle.invite_id !== null && !confirm(t("circle.invite_renew_confirm"))) return;
  const made = await act("POST", `/api/circles/${circleId}/invite`);
  if (!made) return;
  keepInvite(circleId, made);
  invite = made;
  await load();
}

async function loadInvite() {
  const held = heldInvite(circleId);
  if (!held || held.invite_id !== page.circle.invite_id) {
    invite = null;
    return;
  }
  if (invite && invite.code === held.code) return;
  try {
    invite = await api("POST", `/api/circles/${circleId}/invite/show`, { body: { code: held.code } });
  } catch {
    // Renewed elsewhere since: this browser's copy is worthless now.
    forgetInvite(circleId);
    invite = null;
  }
}

function invitePanel() {
  const body = [];
  if (invite) {
    const link = h("input", { readonly: true, value: invite.url, "data-testid": "circle-invite-link", "aria-label": t("circle.invite") });
    body.push(
      h("p", { class: "muted small" }, t("circle.invite_help")),
      h(
        "div",
        { class: "circle-invite" },
        h("img", {
          class: "circle-qr",
          src: `data:image/svg+xml;base64,${btoa(invite.svg)}`,
          width: 168,
          height: 168,
          alt: t("circle.invite_qr"),
          "data-testid": "circle-invite-qr",
        }),
        h(
          "div",
          { class: "copy-row" },
          link,
          h(
            "button",
            {
              class: "btn",
              type: "button",
              "data-testid": "copy-circle-invite",
              onclick: async () => {
                if (await copyText(link)) toast(t("room.copied"));
              },
            },
            t("room.copy_link"),
          ),
        ),
      ),
    );
  } else {
    body.push(h("p", { class: "muted small", "data-testid": "invite-elsewhere" }, t("circle.invite_elsewhere")));
  }
  if (page.circle.keeper) {
    body.push(
      h(
        "p",
        {},
        h("button", { class: "btn small", type: "button", "data-testid": "renew-invite", onclick: renewInvite }, t("circle.invite_renew")),
        " ",
        h("span", { class: "muted small" }, t("circle.invite_renew_help")),
      ),
    );
  }
  return panel(t("circle.invite"), "circle-invite", ...body);
}

async function loadWebhook() {
  if (!page.circle.keeper) {
    webhook = null;
    return;
  }
  if (webhook) return;
  webhook = createWebhookForm({
    path: `/api/circles/${encodeURIComponent(circleId)}/webhook`,
    explainKey: "webhook.explain_circle",
    heading: false,
  });
  await webhook.load();
}

function webhookPanel() {
  if (!webhook) return null;
  webhook.draw();
  return panel(t("webhook.title"), "circle-webhook", webhook.node);
}

function tables() {
  return panel(
    t("circle.tables"),
    "circle-tables",
    page.tables.length
      ? h("ul", { class: "room-list" }, page.tables.map(openTableRow))
      : h("p", { class: "muted small" }, t("circle.no_tables")),
    h(
      "p",
      {},
      h(
        "a",
        { class: "btn primary", href: `/?circle=${encodeURIComponent(circleId)}#create-h`, "data-testid": "open-circle-table" },
        t("circle.open_table"),
      ),
    ),
  );
}

function leaderboards() {
  if (!page.leaderboards.length) {
    return panel(t("circle.leaderboard"), "circle-leaderboard", h("p", { class: "muted small" }, t("circle.no_ratings")));
  }
  return panel(
    t("circle.leaderboard"),
    "circle-leaderboard",
    page.leaderboards.map((board) =>
      h(
        "div",
        { class: "circle-board" },
        h("h3", {}, gameTitle(board.game)),
        h(
          "table",
          { class: "circle-table" },
          h(
            "thead",
            {},
            h("tr", {}, h("th", {}, "#"), h("th", {}, t("circle.player")), h("th", {}, t("circle.rating")), h("th", {}, t("circle.matches"))),
          ),
          h(
            "tbody",
            {},
            board.standings.map((s) =>
              h(
                "tr",
                { class: s.you ? "you" : "", "data-testid": "standing" },
                h("td", {}, String(s.rank)),
                h("td", {}, s.name),
                h("td", { title: `μ ${s.mu.toFixed(2)} · σ ${s.sigma.toFixed(2)}` }, s.ordinal.toFixed(1)),
                h("td", {}, String(s.matches)),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function recent() {
  return panel(
    t("circle.recent"),
    "circle-recent",
    page.matches.length
      ? h("ul", { class: "home-matches" }, page.matches.map((m) => matchRow(m, { member: (s) => s.member })))
      : h("p", { class: "muted small" }, t("circle.no_matches")),
  );
}

function render() {
  const root = clear(document.getElementById("circle"));
  if (!page) return;
  document.title = `Coven — ${page.circle.name}`;
  root.append(
    header(),
    h(
      "div",
      { class: "circle-grid" },
      h("div", { class: "circle-col" }, tables(), leaderboards(), recent()),
      h("div", { class: "circle-col" }, members(), invitePanel(), webhookPanel()),
    ),
  );
}

function notFound(err) {
  const root = clear(document.getElementById("circle"));
  const text = err && err.code === "no_profile" ? t("circle.need_profile") : t("circle.not_found");
  root.append(
    h(
      "section",
      { class: "panel no-room", "data-testid": "circle-missing" },
      h("h1", {}, text),
      h("p", {}, h("a", { class: "btn primary", href: "/" }, t("room.back_to_lobby"))),
    ),
  );
}

async function load() {
  try {
    page = await api("GET", `/api/circles/${encodeURIComponent(circleId)}`);
  } catch (err) {
    page = null;
    if (err.status === 404 || err.status === 401) notFound(err);
    return;
  }
  await loadInvite();
  await loadWebhook();
  // Not while a rename or a webhook is being typed.
  if (!document.querySelector("[data-testid=circle-new-name]") && !(webhook && webhook.busy())) render();
}

async function main() {
  await initI18n();
  await load();
  onLanguageChange(render);
  setInterval(() => {
    if (!document.hidden && page) load();
  }, POLL_MS);
  document.body.dataset.ready = "1";
}

main().catch((err) => console.error(err));
