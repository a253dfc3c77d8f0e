// The table log in words, shared by the room page and the replay: the game's renderer tells
// its own events (`describe`), the room adds the few that belong to every game.

import { t } from "./i18n.js";

/** The log line for `event`, or null to leave it out (`renderer` may still be loading). */
export function logLine(renderer, event) {
  const text = renderer ? renderer.describe(event) : null;
  if (text) return text;
  return event.type === "match_started" ? t("room.match_started") : null;
}
