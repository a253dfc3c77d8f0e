// One renderer per game, found by game id: static/js/games/{id}.js. A game without its own
// renderer still plays through the generic one (legal actions as buttons), so a new game
// needs a renderer module and nothing else. A renderer is handed each state message in turn;
// one marked `quiet` (a replay bringing a fresh renderer up to the step it jumped to) is to be
// remembered and drawn, never animated.

import { createGenericRenderer } from "./games/generic.js";

export async function loadRenderer(gameId, ctx) {
  try {
    const module = await import(`./games/${encodeURIComponent(gameId)}.js`);
    return await module.createRenderer(ctx);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err; // a module that failed to load: fall back
    return createGenericRenderer(ctx);
  }
}
