// The table's webhook to its group's chat (issue 20), for the host: the form of
// webhook_form.js in the room page's Notifications panel (#webhook-box in #notify-panel,
// templates/room.html), which it un-hides. The server says who may set it (`editable`: seat 0's
// token); anyone else sees nothing here, and never the address.

import { api, seats as seatStore } from "./api.js";
import { initI18n, onLanguageChange } from "./i18n.js";
import { createWebhookForm } from "./webhook_form.js";

const code = document.getElementById("room").dataset.code;
const panel = document.getElementById("notify-panel");
const box = document.getElementById("webhook-box");

async function main() {
  await initI18n();
  const mine = seatStore.get(code); // (a rejoin link's token is stored by room.js first)
  if (!mine) return;
  const path = `/api/rooms/${encodeURIComponent(code)}/webhook`;
  const room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`).catch(() => null);
  const form = createWebhookForm({ path, token: mine.token, explainKey: "webhook.explain_table" });
  const info = await form.load();
  if (!info || !info.editable) return;
  // A finished table posts nothing more: the form only if a webhook is left to remove.
  if (room && room.status === "finished" && !info.set) return;
  box.replaceChildren(form.node);
  panel.hidden = false;
  onLanguageChange(() => form.draw());
  box.dataset.ready = "1";
}

main().catch((err) => console.error(err));
