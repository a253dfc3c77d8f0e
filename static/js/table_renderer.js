// What every game's renderer does around its drawing, the same for each game: load the game's
// card catalog, keep the last `state` message (and the one before it, to see what changed),
// reset the move sender on each new one, keep the one chooser that may be open until the
// decision at hand changes, redraw with the keyboard focus and the card-detail panel kept, and
// answer room.js's `render`, `rejected` and `describe`. The drawing is the game's own
// (static/js/games/{id}.js), built from the pieces in table.js.

import { clear } from "./dom.js";
import { attachDetail, createMoves, keepFocus, liveRegion } from "./table.js";
import { placeUndo, undoLine } from "./undo.js";

/** A game's static card data (`GET /api/games/{id}/catalog`). */
export async function loadCatalog(game) {
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/catalog`);
  if (!response.ok) throw new Error(`cannot load the card catalog of ${game}`);
  return response.json();
}

/**
 * The frame of a game's renderer; `createRenderer` returns its `renderer`.
 * - `selector`: the table root's CSS selector (it is marked `data-pending` while a move goes).
 * - `draw(message, isNew)`: the whole table as one node; `isNew` only on the first drawing of a
 *   new message (what it changed may be animated), false on a redraw (a language switch, a
 *   presence change, a chooser opened, a refused move).
 * - `drawn(message, isNew)`: after the table is in the page (an animation that measures it).
 * - `stage(message)`: a key of the decision at hand; when it changes, the open chooser closes
 *   and `onStage()` drops what else was picked for the last one.
 * - `onMessage(message, previous)`: a new message, after the stage: remember what it changed.
 * - `beforeMove()`: just before a move is sent.
 * - `detail`: `{describe(node), closeLabel}` for the card-detail panel (`attachDetail`).
 * - `describe(event)`: the event's table-log line, or null.
 * It returns `{moves, message, previous, mySeat(), rerender(), chooser, openChooser(c),
 * closeChooser(), renderer}`; `chooser` is whatever the game keeps for the open chooser, null
 * when none is open.
 */
export function tableRenderer(ctx, { selector, draw, drawn = null, stage, onStage = null, onMessage = null, beforeMove = null, detail, describe }) {
  let current = null;
  let previous = null;
  let stageKey = null;
  let chooser = null;
  const moves = createMoves(ctx, selector, rerender, { before: beforeMove });
  // A card's whole text on hover or focus, pinned by a tap (a phone has no hover).
  const details = attachDetail(ctx.root, detail.describe, detail.closeLabel);
  // Every move and event in words, for a screen reader: the table log's lines of each message.
  const live = liveRegion(ctx.root);
  const tell = (event) => undoLine(ctx, event) || describe(event);
  const myTurn = (message) => Boolean(message && message.legal && message.legal.length && !message.result);

  function show(message, isNew) {
    keepFocus(ctx.root, () => {
      const node = draw(message, isNew);
      placeUndo(node, message, moves); // every game's Undo, when the engine allows one
      clear(ctx.root).append(node);
    });
    details.refresh();
    if (drawn) drawn(message, isNew);
  }

  function rerender() {
    if (current) show(current, false);
  }

  return {
    moves,
    get message() {
      return current;
    },
    get previous() {
      return previous;
    },
    mySeat: () => (current ? current.seat : null),
    rerender,
    get chooser() {
      return chooser;
    },
    set chooser(value) {
      chooser = value;
    },
    openChooser(value) {
      chooser = value;
      rerender();
    },
    closeChooser() {
      chooser = null;
      rerender();
    },
    renderer: {
      render(message) {
        const isNew = message !== current;
        if (isNew) {
          previous = current;
          current = message;
          moves.reset();
          const key = stage(message);
          if (key !== stageKey) {
            stageKey = key;
            chooser = null;
            if (onStage) onStage();
          }
          if (onMessage) onMessage(message, previous);
          if (!message.quiet) {
            const lines = (message.events || []).map(tell).filter(Boolean);
            // ... and that the seat's turn came (the moves panel is not live: it is redrawn).
            if (myTurn(message) && !myTurn(previous) && ctx.t) lines.push(ctx.t("room.your_turn_title"));
            live.say(message.version, lines);
          }
        }
        show(message, isNew);
      },
      rejected() {
        moves.reset();
        rerender();
      },
      describe: tell,
    },
  };
}
