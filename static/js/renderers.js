// One renderer per game, found by game id: static/js/games/{id}.js. A game without its own
// renderer still plays through the generic one (legal actions as buttons), so a new game
// needs a renderer module and nothing else.

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
