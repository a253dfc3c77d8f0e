// The seed proof in the browser (docs/FAIRNESS.md): this browser's part of each room's shuffle
// (16 random bytes, kept per room), the waiting room's commitment, the end screen's revealed
// seed with the match's download, and the replay viewer's Download, Verify and "open a file".

import { api } from "./api.js";
import { contributions, newContribution } from "./contribution.js";
import { clear, h } from "./dom.js";
import { errorText } from "./forms.js";
import { has, t } from "./i18n.js";
import { useStylesheet } from "./table.js";

useStylesheet("proof.css");

// Element.append writes null as "null": what is not there is left out.
const put = (node, ...children) => clear(node).append(...children.filter((c) => c !== null && c !== undefined));

const listed = (fairness, seat) => (fairness && seat !== null && seat !== undefined ? fairness.contributions.find((c) => c.seat === seat) || null : null);

/** Before the start, a seat this browser holds but never gave a part (taken through the API, or
 * opened here by its rejoin link) sends one, once per page. A seat it joined, created or came
 * to as a rematch sent its part with that request (and keeps it: nothing to send). */
let sent = false;
export async function ensureContribution(code, room, mine) {
  if (sent || !room || room.status !== "open" || !room.fairness || !mine) return null;
  if (contributions.get(code)) return null;
  sent = true;
  const value = newContribution();
  const updated = await api("POST", `/api/rooms/${encodeURIComponent(code)}/contribution`, { body: { contribution: value }, token: mine.token });
  contributions.set(code, value);
  return updated;
}

const hex = (value, testid) => h("code", { class: "proof-hex", "data-testid": testid, title: value }, value);

function yourPart(fairness, code, seat) {
  const own = contributions.get(code);
  const part = listed(fairness, seat);
  if (!own || !part) return null;
  const inMix = part.value === own;
  return h(
    "div",
    { class: "proof-line" },
    h("span", {}, t("proof.your_part")),
    " ",
    hex(own, "proof-your-part"),
    h("p", { class: inMix ? "proof-ok small" : "warn small", "data-testid": "proof-in-mix" }, inMix ? t("proof.in_mix") : t("proof.not_in_mix")),
  );
}

/** The waiting room's box: the commitment, how many parts are in, this browser's own. */
export function renderWaitingProof(box, room, taken, seat, code) {
  const fairness = room && room.fairness;
  box.hidden = !fairness || room.status !== "open";
  if (box.hidden) return;
  put(box, 
    h("h2", {}, t("proof.title")),
    h("p", { class: "muted small" }, t("proof.committed")),
    hex(fairness.commitment, "proof-commitment"),
    h("p", { class: "muted small", "data-testid": "proof-parts" }, t("proof.parts", { n: fairness.contributions.length, seats: taken })),
    yourPart(fairness, code, seat),
    h("p", { class: "muted small" }, t("proof.after_end")),
  );
}

/** The end screen's section: the revealed seed, whether this browser's part went in, the
 * download and the way to check it. */
export function endScreenProof(end, fairness, code, seat) {
  if (!fairness || !fairness.revealed || end.querySelector("[data-testid=proof-revealed]")) return;
  const shown = fairness.revealed;
  const search = location.search;
  end.append(
    h(
      "section",
      { class: "proof proof-end", "data-testid": "proof-revealed" },
      h("h3", {}, t("proof.revealed_title")),
      h("p", { class: "small" }, t("proof.revealed")),
      hex(shown.server_seed, "proof-server-seed"),
      h("p", { class: "small muted" }, t("proof.match_seed"), " ", h("code", { "data-testid": "proof-match-seed" }, String(shown.match_seed))),
      yourPart(fairness, code, seat),
      h(
        "div",
        { class: "button-row" },
        h("a", { class: "btn small", href: `/api/rooms/${encodeURIComponent(code)}/export`, download: "", "data-testid": "proof-download" }, t("proof.download")),
        h("a", { class: "btn small", href: `/r/${encodeURIComponent(code)}/replay${search}#verify`, "data-testid": "proof-check" }, t("proof.check_it")),
      ),
    ),
  );
}

function why(outcome) {
  const key = `proof.why_${outcome.code}`;
  return has(key) ? t(key) : t("proof.why_other");
}

/**
 * The replay viewer's proof panel: Download (a room's match), Verify (POST /api/verify with the
 * export: the room's, or the file opened), and the way to open another file.
 * `source`: {code} or {document, name}.
 */
export function replayProof(panel, source) {
  const answer = h("div", { class: "proof-answer", "data-testid": "verify-answer", "aria-live": "polite" });
  const verify = h("button", { class: "btn primary", type: "button", "data-testid": "verify" }, t("proof.verify"));
  verify.addEventListener("click", async () => {
    verify.disabled = true;
    clear(answer).append(h("p", { class: "muted" }, t("proof.verifying")));
    try {
      const document_ = source.document || (await api("GET", `/api/rooms/${encodeURIComponent(source.code)}/export`));
      const outcome = await api("POST", "/api/verify", { body: document_ });
      answer.dataset.verified = outcome.verified ? "1" : "0";
      put(
        answer,
        outcome.verified
          ? h("p", { class: "proof-ok" }, "✓ ", t("proof.verified"))
          : h("p", { class: "proof-bad" }, "✗ ", outcome.step === null ? t("proof.failed", { why: why(outcome) }) : t("proof.failed_step", { step: outcome.step, why: why(outcome) })),
        outcome.verified ? null : h("details", { class: "small" }, h("summary", {}, t("proof.details")), h("p", { class: "proof-reason" }, outcome.reason)),
      );
    } catch (err) {
      answer.dataset.verified = "0";
      clear(answer).append(h("p", { class: "proof-bad" }, errorText(err)));
    } finally {
      verify.disabled = false;
    }
  });
  put(
    panel,
    h("h2", {}, t("proof.title")),
    source.name ? h("p", { class: "muted small", "data-testid": "opened-file" }, t("proof.opened_file", { name: source.name })) : null,
    h("p", { class: "muted small" }, t("proof.verify_hint")),
    h(
      "div",
      { class: "button-row" },
      verify,
      source.code ? h("a", { class: "btn", href: `/api/rooms/${encodeURIComponent(source.code)}/export`, download: "", "data-testid": "replay-download" }, t("proof.download")) : null,
      h("a", { class: "btn ghost", href: `/replay/open${location.search}`, "data-testid": "open-export" }, t("proof.open_title")),
    ),
    answer,
  );
  panel.hidden = false;
  return verify;
}

/** /replay/open: a file input; the chosen export is posted (POST /api/replays) and `opened`
 * gets {key, document, name}. */
export function openExportForm(panel, opened) {
  const error = h("p", { class: "error", role: "alert", "data-testid": "open-error" });
  const input = h("input", { type: "file", accept: "application/json,.json", id: "export-file", "data-testid": "export-file" });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    error.textContent = "";
    try {
      const text = await file.text();
      let document_;
      try {
        document_ = JSON.parse(text);
      } catch {
        error.textContent = t("room.error_not_an_export");
        return;
      }
      const made = await api("POST", "/api/replays", { body: document_ });
      opened({ key: made.id, document: document_, name: file.name });
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  put(
    panel,
    h("h2", {}, t("proof.open_title")),
    h("p", { class: "muted" }, t("proof.open_hint")),
    h("label", { class: "field", for: "export-file" }, h("span", {}, t("proof.open_file")), input),
    error,
  );
  panel.hidden = false;
}
