// The table's setup in words: the game's options as chosen (the lobby's
// `game.{id}.option.*` labels) and the turn clock.

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

export function clockWords(t, seconds) {
  if (!seconds) return t("room.clock_off");
  const n = Math.round(seconds);
  return n < 60 || n % 60 ? t("room.clock_seconds", { n }) : t("room.clock_minutes", { n: n / 60 });
}
