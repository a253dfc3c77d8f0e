// The table's setup in words: the game's options as chosen (the lobby's
// `game.{id}.option.*` labels), the turn clock and its rule.

export function optionWords(t, has, gameId, options) {
  const text = (key, fallback) => (has(key) ? t(key) : fallback);
  return Object.entries(options || {}).map(([name, value]) => {
    const label = text(`game.${gameId}.option.${name}.label`, name);
    const shown =
      typeof value === "boolean"
        ? t(value ? "room.option_yes" : "room.option_no")
        : text(`game.${gameId}.option.${name}.${value}`, String(value));
    return `${label}: ${shown}`;
  });
}

/** The time per move in words: "30 s per move", "2 min per move", "12 h per move",
 * "1 day per move", "3 days per move"; "none" without a clock. */
export function clockWords(t, seconds) {
  if (!seconds) return t("room.clock_off");
  const n = Math.round(seconds);
  if (n < 60 || n % 60) return t("room.clock_seconds", { n });
  if (n < 3600 || n % 3600) return t("room.clock_minutes", { n: n / 60 });
  if (n % 86400) return t("room.clock_hours", { n: n / 3600 });
  return n === 86400 ? t("room.clock_day") : t("room.clock_days", { n: n / 86400 });
}

/** What happens when a seat's time runs out (`rule`: "move" | "seat"), in words. */
export function clockRuleWords(t, rule) {
  return rule === "seat" ? t("room.clock_rule_seat") : t("room.clock_rule_move");
}
