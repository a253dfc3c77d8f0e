// The fallback table for a game without its own renderer: whose move it is, the legal actions
// as buttons (each sends exactly that action), and the result.

import { clear, h } from "../dom.js";

export function createGenericRenderer(ctx) {
  const { root, t } = ctx;
  let pending = false;
  return {
    render(message) {
      pending = false;
      clear(root);
      const waitingFor = message.to_move.map((seat) => ctx.seatName(seat)).join(", ");
      root.append(
        h(
          "div",
          { class: "generic panel", dataset: { version: message.version, pending: "0", myTurn: message.legal.length ? "1" : "0" } },
          message.result
            ? h("p", { "data-testid": "game-over" }, t("generic.winners", { names: message.result.winners.map((s) => ctx.seatName(s)).join(", ") }))
            : h("p", {}, message.legal.length ? t("generic.your_move") : t("generic.waiting_for", { names: waitingFor })),
          h(
            "div",
            { class: "button-row" },
            message.legal.map((action) =>
              h("button", { class: "btn", type: "button", "data-action": action.type, disabled: pending, onclick: () => { pending = true; ctx.act(action); } }, JSON.stringify(action)),
            ),
          ),
        ),
      );
    },
    describe(event) {
      return event.type;
    },
  };
}
