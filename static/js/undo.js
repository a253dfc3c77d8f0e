// Undo within a turn, the same for every game: the engine decides when a seat may take back its
// last step (the `state` message's `undo`), this draws the one "Undo" button that sends
// `{"type": "undo"}` like any action, and tells the `undone` event in the table log.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The Undo button for `message`, or null when the engine allows none now. */
export function undoButton(message, moves) {
  if (!message || !message.undo || message.result || message.seat === null) return null;
  return h(
    "button",
    {
      class: "btn undo",
      type: "button",
      "data-action": "undo",
      "data-key": "undo",
      "data-testid": "undo",
      title: t("undo.hint"),
      disabled: moves.pending,
      onclick: () => moves.send({ type: "undo" }),
    },
    t("undo.button"),
  );
}

/** Put the Undo button at the head of the table's moves (or of the table when it has none). */
export function placeUndo(node, message, moves) {
  const button = undoButton(message, moves);
  if (!button) return;
  const where = node.querySelector('[data-testid="moves"]') || node;
  where.prepend(h("div", { class: "undo-bar" }, button));
}

/** The table-log line of an `undone` event, or null for any other event. */
export function undoLine(ctx, event) {
  // "undone_privately": she took back a step only she could see; only she is told.
  if (event.type !== "undone" && event.type !== "undone_privately") return null;
  return t("undo.done", { name: ctx.seatName(event.seat) });
}
