// Whirling Witchcraft drawn as a table: every witch's board (Witch's Circle, workbench slots,
// arcana tracks, cauldron), the row of played recipes, the hand, and a panel with exactly the
// moves in `legal`. Every control that makes a move sends an action object taken from `legal`.

import { h } from "../dom.js";
import { has, tn } from "../i18n.js";
import { card, chip, countsInWords, endScreen, handArea, icon, moveArea, oneOf, otherBoards, phoneRow, playerBoard, tableRoot, token, tokens, total as sum, winnerHeadline, yourChoice } from "../table.js";
import { loadCatalog, tableRenderer } from "../table_renderer.js";

const INGREDIENTS = ["heart", "mandrake", "mushroom", "spider", "toad"];
const ARCANA = ["potion", "raven", "book"];
const TRIGGERS = ["potion", "raven", "book", "pour"];
const TRACK_MAX = 6;
const TRIGGER_SPACES = [2, 4, 6];
const WIN = 5;

export async function createRenderer(ctx) {
  const { root, t } = ctx;
  const catalog = await loadCatalog("whirling-witchcraft");

  // What she has picked for the decision at hand (dropped when it changes); the open chooser
  // (table.chooser) is {kind: "brew", recipe} | {kind: "scholar"} | {kind: "claim"}.
  const ui = {
    selected: null, // card id picked from the hand (study)
    rotated: false,
    randomRotated: false,
    passes: [], // the last round's cauldron passes, told in words on the table
    confirmSwap: false,
    raven: [], // the cubes picked on the workbench for the Raven, in the order they were clicked
  };
  const table = tableRenderer(ctx, {
    selector: ".ww",
    draw,
    drawn: (message, isNew) => { if (isNew && !message.quiet) flyCauldrons(message); },
    stage: (message) => `${message.view.round}:${message.view.phase}`,
    onStage: () => {
      ui.selected = null;
      ui.rotated = false;
      ui.randomRotated = false;
      ui.confirmSwap = false;
      ui.raven = [];
    },
    onMessage: remember,
    beforeMove: () => { table.chooser = null; },
    detail: {
      describe: (node) => (node.dataset.detail === "persona" ? personalityDetail(node.dataset.personality) : recipeDetail(node.dataset.card)),
      closeLabel: t("ww.close"),
    },
    describe: describeEvent,
  });
  const { moves, mySeat, rerender } = table;

  // -- words ---------------------------------------------------------------------------------
  const ing = (kind) => t(`ww.ingredient.${kind}`);
  const arcanaName = (kind) => t(`ww.arcana.${kind}`);
  const personalityName = (id) => (id && id !== "hidden" ? t(`ww.personality.${id}`) : "?");
  const dealt = (view) => view.phase !== "personality";

  function recipeOf(id) {
    // A room option may pick a card's alternative reading (catalog.variants, keyed by option).
    const options = (table.message && table.message.view.options) || {};
    for (const [option, cards] of Object.entries(catalog.variants || {})) if (options[option] && cards[id]) return cards[id];
    if (catalog.recipes[id]) return catalog.recipes[id];
    const personality = catalog.personalities[id];
    return personality ? personality.recipe : null;
  }

  function cardName(id) {
    if (catalog.personalities[id]) return personalityName(id);
    const key = `ww.card.${id}`;
    if (has(key)) return t(key);
    const recipe = recipeOf(id);
    return recipe ? recipe.name : id;
  }

  const cubeWords = (dict) => countsInWords(dict, INGREDIENTS, (count, k) => t("ww.count_of", { count, name: ing(k) }), t("ww.nothing"));
  const total = (dict) => sum(dict, INGREDIENTS);
  const name = (seat) => ctx.seatName(seat);

  // -- cubes and cards -----------------------------------------------------------------------
  const cube = (kind, extra = "") => token("cube", kind, ing(kind), extra);

  // A slot that takes one cube of any of `kinds`, drawn so it reads without hovering.
  function choiceCube(kinds, count = 1) {
    const all = INGREDIENTS.every((k) => kinds.includes(k));
    const label = all ? t("ww.any_cube") : kinds.map(ing).join(" / ");
    return oneOf("cube", kinds, { label, kindLabel: ing, all, anyLabel: t("ww.any"), count });
  }

  const cubes = (dict, extra = "") => tokens("cube", dict, INGREDIENTS, ing, extra);

  function slots(fixed, choices) {
    const out = cubes(fixed);
    // Identical choice slots side by side are drawn once with their count ("3× any").
    const groups = [];
    for (const slot of choices || []) {
      const last = groups[groups.length - 1];
      if (last && last.kinds.join() === slot.join()) last.count += 1;
      else groups.push({ kinds: slot, count: 1 });
    }
    for (const group of groups) out.push(choiceCube(group.kinds, group.count));
    return out.length ? h("span", { class: "slots" }, out) : h("span", { class: "slots none" }, "∅");
  }

  function arcanaIcons(arcana) {
    const out = [];
    for (const kind of ARCANA) for (let i = 0; i < ((arcana && arcana[kind]) || 0); i += 1) out.push(icon(kind, arcanaName(kind)));
    return h("span", { class: "card-arcana" }, out);
  }

  function recipeCard(id, rotated, { extra = "", testid = null } = {}) {
    const recipe = recipeOf(id);
    if (!recipe) return h("div", { class: "card recipe" }, id);
    const face = rotated ? recipe.turned : recipe.front;
    const direction = recipe.reversible ? t("ww.two_way") : t("ww.one_way");
    // A personality's recipe sits on her card, whose icons (Frog Whisperer: one book) count at setup.
    const personality = catalog.personalities[id];
    const icons = personality ? personality.arcana_on_flip : recipe.arcana;
    return card({
      name: cardName(id),
      head: [arcanaIcons(icons), recipe.initiative ? h("span", { class: "init", title: t("ww.initiative") }, recipe.initiative) : null],
      body: h(
        "div",
        { class: "card-face" },
        slots(face.in, face.in_choice),
        h("span", { class: "arrow", role: "img", title: direction, "aria-label": direction }, recipe.reversible ? "⇄" : "➜"),
        slots(face.out, face.out_choice),
      ),
      foot: [rotated ? h("div", { class: "turned-badge" }, t("ww.turned")) : null, recipe.single_use ? h("div", { class: "turned-badge" }, t("ww.single_use")) : null],
      extra: `recipe ${rotated ? "rotated" : ""} ${extra}`,
      testid,
      data: { card: id, detail: "recipe" },
    });
  }

  // The card in words: what the icons say, both faces of a two-way card.
  function faceWords(fixed, choices) {
    const parts = total(fixed) ? [cubeWords(fixed)] : [];
    for (const slot of choices || []) parts.push(slot.map(ing).join(" / "));
    return parts.length ? parts.join(", ") : t("ww.nothing");
  }

  const arcanaWords = (arcana) => ARCANA.filter((k) => arcana && arcana[k]).map((k) => (arcana[k] > 1 ? t("ww.count_of", { count: arcana[k], name: arcanaName(k) }) : arcanaName(k)));

  function recipeDetail(id) {
    const recipe = id ? recipeOf(id) : null;
    if (!recipe) return null;
    const personality = catalog.personalities[id];
    const meta = [];
    if (recipe.initiative) meta.push(`${t("ww.initiative")} ${recipe.initiative}`);
    meta.push(...arcanaWords(personality ? personality.arcana_on_flip : recipe.arcana));
    meta.push(recipe.reversible ? t("ww.two_way") : t("ww.one_way"));
    if (recipe.single_use) meta.push(t("ww.single_use"));
    const face = (side) => `${faceWords(side.in, side.in_choice)} ➜ ${faceWords(side.out, side.out_choice)}`;
    return [
      h("h4", {}, cardName(id)),
      h("p", { class: "small muted" }, meta.join(" · ")),
      h("p", {}, face(recipe.front)),
      recipe.reversible && recipe.turned ? h("p", {}, h("strong", {}, `${t("ww.turned")}:`), " ", face(recipe.turned)) : null,
      personality ? h("p", { class: "small" }, t(`ww.power.${personality.power}`)) : null,
    ];
  }

  function personalityDetail(id) {
    const card = id ? catalog.personalities[id] : null;
    if (!card) return null;
    const icons = arcanaWords(card.arcana_on_flip);
    return [
      h("h4", {}, personalityName(id)),
      h("p", {}, t(`ww.power.${card.power}`)),
      h("p", { class: "small" }, `${t("ww.starts_with")} ${faceWords(card.start)}`),
      icons.length ? h("p", { class: "small" }, `${t("ww.arcana_on_flip")} ${icons.join(", ")}`) : null,
    ];
  }

  // -- a witch's board -----------------------------------------------------------------------
  function statusChip(player, phase, brewer) {
    if (phase === "personality") return player.offer_count ? [t("ww.status.choosing"), "busy"] : [t("ww.status.kept"), "ok"];
    if (phase === "study") return player.committed ? [t("ww.status.chosen"), "ok"] : [t("ww.status.choosing"), "busy"];
    if (phase === "brew") {
      if (player.done) return [t("ww.status.done"), "ok"];
      // Production in initiative order: only the witch whose turn it is brews; the others wait.
      if (brewer !== null && brewer !== player.seat) return [t("ww.status.waiting_turn"), ""];
      return [t("ww.status.brewing"), "busy"];
    }
    return [null, ""];
  }

  function circle(player, fresh) {
    const got = player.circle_total;
    return h(
      "div",
      { class: `circle ${got >= WIN ? "won" : ""}`, title: t("ww.circle"), "data-testid": `circle-${player.seat}` },
      h("span", { class: "circle-label" }, t("ww.circle")),
      h("span", { class: "circle-cubes" }, cubes(player.circle, fresh ? "new-cube" : "")),
      h("span", { class: "circle-total" }, `${got}/${WIN}`),
    );
  }

  // `pick` (her own sheet, a Raven pending): every cube is a toggle that picks it for removal.
  function workbench(player, production, before, pick = null) {
    const rows = catalog.ingredients.map(({ key, capacity }) => {
      const now = production ? production.workbench[key] : player.workbench[key];
      const had = player.workbench[key];
      const earlier = before ? before[key] : had;
      const book = production && production.books.includes(key);
      const cells = [];
      for (let i = 0; i < capacity; i += 1) {
        let cls = "slot";
        if (i < now) cls += ` filled c-${key}`;
        else if (i < had) cls += ` spent c-${key}`;
        if (i < had && i >= earlier) cls += " new-cube";
        if (pick && i < now) cells.push(ravenCube(key, i, now));
        else cells.push(h("span", { class: cls }));
      }
      return h(
        "div",
        { class: `bench-row ${now >= capacity ? "full" : ""}`, "data-ingredient": key },
        h("span", { class: "bench-label" }, cube(key), h("span", { class: "bench-name" }, ing(key)), h("span", { class: "bench-count" }, `${now}/${capacity}`)),
        h("span", { class: `bench-slots cap-${capacity}` }, cells),
        book ? h("span", { class: "book-badge", title: t("ww.book_active") }, icon("book", t("ww.book_active"))) : null,
      );
    });
    return h("div", { class: "workbench", role: "group", "aria-label": t("ww.workbench") }, h("div", { class: "zone-label" }, t("ww.workbench")), rows);
  }

  // One cube on her workbench while the Raven is pending: a click picks it or puts it back.
  function ravenCube(key, i, now) {
    const on = ui.raven.includes(`${key}:${i}`);
    const label = t(on ? "ww.raven.cube_picked" : "ww.raven.cube", { name: ing(key), n: i + 1, of: now });
    return h("button", {
      class: `slot filled c-${key} pickable ${on ? "picked" : ""}`,
      type: "button",
      "data-action": "pick-cube",
      "data-ingredient": key,
      "data-key": `raven-${key}-${i}`,
      "aria-pressed": String(on),
      "aria-label": label,
      title: label,
      disabled: moves.pending,
      onclick: () => toggleRavenCube(`${key}:${i}`),
    });
  }

  function toggleRavenCube(cubeId) {
    if (ui.raven.includes(cubeId)) ui.raven = ui.raven.filter((c) => c !== cubeId);
    else {
      ui.raven.push(cubeId);
      const most = Math.max(0, ...ravenActions().map((a) => total(a.remove)));
      while (ui.raven.length > most) ui.raven.shift(); // a third click drops the oldest pick
    }
    rerender();
  }

  const ravenActions = () => (table.message ? table.message.legal.filter((a) => a.type === "raven") : []);
  const ravenCounts = () => Object.fromEntries(INGREDIENTS.map((k) => [k, ui.raven.filter((c) => c.startsWith(`${k}:`)).length]).filter(([, n]) => n));
  const sameCubes = (a, b) => INGREDIENTS.every((k) => (a[k] || 0) === (b[k] || 0));

  function arcanaTracks(player, before) {
    return h(
      "div",
      { class: "tracks", "aria-label": t("ww.arcana_tracks") },
      ARCANA.map((kind) => {
        const value = player.arcana[kind];
        const cells = [];
        for (let i = 0; i <= TRACK_MAX; i += 1) {
          let cls = "track-cell";
          if (TRIGGER_SPACES.includes(i)) cls += " trigger";
          if (i <= value && i > 0) cls += " passed";
          if (i === value) cls += " token";
          if (i === value && before && before[kind] !== value) cls += " new-cube";
          cells.push(h("span", { class: cls }, TRIGGER_SPACES.includes(i) ? String(i) : ""));
        }
        return h("div", { class: `track track-${kind}`, title: `${arcanaName(kind)}: ${value}/${TRACK_MAX}` }, icon(kind, arcanaName(kind)), h("span", { class: "track-cells" }, cells));
      }),
    );
  }

  function cauldron(player, production, phase) {
    let content;
    if (production) {
      content = [
        h("span", { class: "cauldron-cubes" }, cubes(production.cauldron)),
        total(production.outputs) ? h("span", { class: "outputs-note small" }, t("ww.on_outputs"), " ", cubes(production.outputs, "ghost")) : null,
      ];
    } else if (phase === "brew" && player.production === "hidden") {
      content = h("span", { class: "muted small" }, player.done ? t("ww.cauldron_ready") : t("ww.cauldron_secret"));
    } else content = h("span", { class: "muted small" }, t("ww.cauldron_empty"));
    return h("div", { class: "cauldron", "data-testid": `cauldron-${player.seat}`, "data-seat": player.seat }, h("span", { class: "zone-label" }, t("ww.cauldron")), content);
  }

  function rowOf(player) {
    const row = [];
    if (player.own_recipe) row.push({ card: player.own_recipe.recipe, rotated: player.own_recipe.rotated, own: true });
    for (const entry of player.tableau) row.push({ card: entry.card, rotated: entry.rotated, own: false });
    return row;
  }

  function tableau(player, mine, usable, production, freshCard) {
    const row = rowOf(player);
    const items = row.map((entry) => {
      const used = production && production.used.includes(entry.card);
      const canUse = mine && usable.has(entry.card) && !moves.pending;
      const card = recipeCard(entry.card, entry.rotated, {
        extra: `${entry.own ? "own" : ""} ${used ? "used" : ""} ${canUse ? "usable" : ""} ${freshCard && freshCard === entry.card && !entry.own ? "flip-in" : ""}`,
      });
      if (used) card.append(h("div", { class: "used-badge" }, t("ww.used")));
      if (canUse) card.append(useButton(entry.card, `use-${entry.card}`, "btn small use", t("ww.use")));
      return card;
    });
    return phoneRow("tableau", t("ww.tableau"), items.length ? items : h("span", { class: "muted small" }, t("ww.no_recipes")));
  }

  function board(player, view, { mine, usable, fresh }) {
    // Her own sheet always; another witch's only when production is open (initiative order).
    const production = player.production && typeof player.production === "object" ? player.production : null;
    const brewer = view.brewer === undefined ? null : view.brewer;
    const [status, statusClass] = statusChip(player, view.phase, brewer);
    const n = view.players.length;
    const nemesis = (player.seat - 1 + n) % n;
    const personality = player.personality;
    const power = personality && personality !== "hidden" ? catalog.personalities[personality] : null;
    return playerBoard(ctx, player.seat, {
      mine,
      collapsible: true, // another witch's board opens on a tap on a phone
      glance: [h("span", { class: "chip glance-circle", title: t("ww.circle") }, `${t("ww.circle")} ${player.circle_total}/${WIN}`)],
      chips: [
        h("span", { class: "persona", ...(power ? { tabindex: "0", "data-detail": "persona", "data-personality": personality } : {}) }, personality === null && view.phase !== "personality" ? t("ww.no_personality") : personalityName(personality)),
        chip(status, statusClass, `status-${player.seat}`),
        dealt(view) ? h("span", { class: "muted small hand-count", title: t("ww.hand") }, t("ww.cards_in_hand", { count: player.hand_count })) : null,
        n > 1 ? h("span", { class: "muted small nemesis", title: t("ww.nemesis_help") }, t("ww.sends_to", { name: name(nemesis) })) : null,
      ],
      body: [
        mine && power ? h("p", { class: "small muted power-text" }, t(`ww.power.${power.power}`)) : null,
        h(
          "div",
          { class: "board-body" },
          h("div", { class: "board-col" }, circle(player, fresh.circle.has(player.seat)), cauldron(player, production, view.phase), arcanaTracks(player, fresh.arcana.get(player.seat))),
          workbench(player, production, fresh.bench.get(player.seat), mine && ravenActions().length ? true : null),
        ),
        tableau(player, mine, usable, production, fresh.cards.get(player.seat)),
      ],
    });
  }

  // -- the hand and the move panel -----------------------------------------------------------
  const send = (action) => moves.send(action);
  const moveButton = (label, action, options) => moves.button(label, action, options);

  // Using a recipe: with one legal way it is done in this one click; with more, the ways open.
  function useButton(recipe, key, cls, label) {
    const ways = table.message.legal.filter((a) => a.type === "brew" && a.recipe === recipe);
    const only = ways.length === 1 ? ways[0] : null;
    const title = only ? t("ww.use_as", { card: cardName(recipe), how: variantLabel(only) }) : t("ww.use_choose", { card: cardName(recipe), count: ways.length });
    return h(
      "button",
      {
        class: cls, type: "button", "data-action": "use-recipe", "data-recipe": recipe, "data-ways": String(ways.length), "data-key": key, title, "aria-label": title, disabled: moves.pending,
        onclick: () => (only ? send(only) : openChooser({ kind: "brew", recipe })),
      },
      label,
    );
  }

  function openChooser(chooser) {
    table.openChooser(chooser);
    const first = root.querySelector(".chooser [data-action]");
    if (first) first.focus();
  }

  function hand(player, legal) {
    if (!Array.isArray(player.hand)) return null;
    const plays = legal.filter((a) => a.type === "play");
    const cards = player.hand.map((id) => {
      const playable = plays.some((a) => a.card === id);
      const selected = ui.selected === id;
      const card = recipeCard(id, selected && ui.rotated, { extra: `${playable ? "playable" : ""} ${selected ? "selected" : ""}`, testid: "hand-card" });
      if (!playable) return card;
      return h(
        "button",
        { class: "card-button", type: "button", "data-action": "select-card", "data-card": id, "data-detail": "recipe", "data-key": `card-${id}`, "aria-pressed": String(selected), disabled: moves.pending, onclick: () => { ui.selected = id; ui.rotated = false; rerender(); } },
        card,
      );
    });
    return handArea({ label: t("ww.hand"), heading: t("ww.your_hand"), cards, empty: t("ww.empty_hand"), sideways: true });
  }

  function studyPanel(legal, me) {
    const out = [];
    const gains = legal.filter((a) => a.type === "gain");
    if (gains.length) {
      out.push(h("p", {}, t("ww.prompt.gain")));
      out.push(h("div", { class: "button-row" }, gains.map((a) => moveButton(ing(a.ingredient), a, { key: `gain-${a.ingredient}`, content: [cube(a.ingredient), " ", t("ww.gain_three", { name: ing(a.ingredient) })] }))));
      return out;
    }
    const confirms = legal.filter((a) => a.type === "confirm_random");
    if (confirms.length) {
      const card = me.played && me.played !== "hidden" ? me.played.card : null;
      const canTurn = confirms.some((a) => a.rotated);
      if (!canTurn) ui.randomRotated = false;
      out.push(h("p", {}, t("ww.prompt.random_card")));
      if (card) out.push(h("div", { class: "preview" }, recipeCard(card, ui.randomRotated)));
      if (canTurn) out.push(h("button", { class: "btn", type: "button", "data-action": "toggle-rotate", "aria-pressed": String(ui.randomRotated), onclick: () => { ui.randomRotated = !ui.randomRotated; rerender(); } }, ui.randomRotated ? t("ww.turn_back") : t("ww.turn")));
      out.push(h("p", { class: "small muted" }, t("ww.prompt.extra_arcana")));
      out.push(
        h("div", { class: "button-row" }, confirms.filter((a) => a.rotated === ui.randomRotated).map((a) =>
          moveButton("", a, { key: `confirm-${a.arcana}`, content: a.arcana ? [icon(a.arcana, arcanaName(a.arcana)), " ", t("ww.confirm_with", { arcana: arcanaName(a.arcana) })] : t("ww.confirm_without") }),
        )),
      );
      return out;
    }
    const plays = legal.filter((a) => a.type === "play");
    if (plays.length) {
      if (ui.selected && !plays.some((a) => a.card === ui.selected)) ui.selected = null;
      out.push(h("p", {}, t("ww.prompt.study")));
      // The picked card is marked (and turned) in the hand itself; here one line and the same
      // two buttons whether a card is picked or not, so picking one moves nothing on the page.
      const straight = ui.selected ? plays.find((a) => a.card === ui.selected && !a.rotated) : null;
      const turned = ui.selected ? plays.find((a) => a.card === ui.selected && a.rotated) : null;
      if (ui.selected && !turned) ui.rotated = false;
      if (ui.selected && !straight) ui.rotated = true;
      const action = ui.rotated ? turned : straight;
      const canTurn = Boolean(turned && straight);
      out.push(
        h(
          "div",
          { class: "study-actions", "data-testid": "study-actions" },
          h("p", { class: `small study-chosen ${ui.selected ? "" : "muted"}`, "data-testid": "study-chosen" }, ui.selected ? t(ui.rotated ? "ww.chosen_turned" : "ww.chosen", { card: cardName(ui.selected) }) : t("ww.prompt.pick_card")),
          h(
            "div",
            { class: "button-row" },
            action ? moveButton(t("ww.play_this"), action, { cls: "btn primary", key: "play" }) : h("button", { class: "btn primary", type: "button", "data-key": "play", disabled: true }, t("ww.play_this")),
            h(
              "button",
              { class: `btn ${canTurn ? "" : "unneeded"}`, type: "button", "data-action": canTurn ? "toggle-rotate" : null, "data-key": "rotate", "aria-pressed": String(ui.rotated), "aria-hidden": canTurn ? null : "true", tabindex: canTurn ? null : "-1", disabled: moves.pending || !canTurn, onclick: () => { ui.rotated = !ui.rotated; rerender(); } },
              ui.rotated ? t("ww.turn_back") : t("ww.turn"),
            ),
          ),
        ),
      );
    }
    const extras = [];
    for (const a of legal) {
      if (a.type === "play_random") extras.push(moveButton(t("ww.play_random"), a, { key: "random" }));
      if (a.type === "swap_hand") {
        // Once per game and it throws the whole hand away: ask before doing it.
        extras.push(
          ui.confirmSwap
            ? h("span", { class: "confirm-swap" }, t("ww.swap_sure"), " ", moveButton(t("ww.swap_yes"), a, { cls: "btn primary", key: "swap" }), h("button", { class: "btn ghost", type: "button", "data-key": "swap-no", onclick: () => { ui.confirmSwap = false; rerender(); } }, t("ww.cancel")))
            : moves.control(t("ww.swap_hand"), { kind: "ask-swap", key: "ask-swap", onClick: () => { ui.confirmSwap = true; rerender(); } }),
        );
      }
      if (a.type === "skip") extras.push(moveButton(t("ww.skip"), a, { cls: "btn primary", key: "skip" }));
    }
    if (legal.some((a) => a.type === "skip")) out.push(h("p", {}, t("ww.prompt.skip")));
    if (extras.length) out.push(h("div", { class: "button-row" }, extras));
    return out;
  }

  function arcanaPanel(legal, production) {
    const out = [h("p", {}, t("ww.prompt.arcana"))];
    for (const kind of TRIGGERS) {
      if (!production.triggers.includes(kind)) continue;
      const options = legal.filter((a) => a.type === kind);
      const decline = legal.find((a) => a.type === "decline" && a.arcana === kind);
      const declining = decline ? moveButton(t("ww.decline"), decline, { kind: "decline", cls: "btn ghost", key: `decline-${kind}` }) : null;
      const choice = kind === "raven"
        ? ravenPick(options, declining)
        : h("div", { class: "button-row wrap" }, options.map((a) => moveButton("", a, { key: `${kind}-${a.ingredient}`, cls: "btn option", content: [cube(a.ingredient), " ", ing(a.ingredient)] })), declining);
      out.push(
        h(
          "div",
          { class: `arcana-choice arcana-${kind}`, "data-testid": `arcana-${kind}` },
          h("h4", {}, icon(kind, t(`ww.trigger.${kind}`)), " ", t(`ww.trigger.${kind}`)),
          h("p", { class: "small muted" }, t(`ww.trigger_help.${kind}`)),
          choice,
        ),
      );
    }
    return out;
  }

  // The Raven: the cubes are picked by clicking them on the workbench below; this says which are
  // picked and sends the legal `raven` action that removes exactly those (one button, same place).
  function ravenPick(options, declining) {
    const picked = ravenCounts();
    const action = total(picked) ? options.find((a) => sameCubes(a.remove, picked)) : null;
    return [
      h("p", { class: "small", "data-testid": "raven-help" }, t("ww.raven.help")),
      h(
        "div",
        { class: "raven-pick" },
        h("span", { class: "small muted" }, t("ww.raven.picked")),
        h("span", { class: "raven-picked", "data-testid": "raven-picked" }, ravenSlots(picked, options)),
        action
          ? moveButton(t("ww.raven.remove"), action, { cls: "btn primary", key: "raven-remove" })
          : h("button", { class: "btn primary", type: "button", "data-key": "raven-remove", disabled: true }, t("ww.raven.remove")),
        declining,
      ),
    ];
  }

  // The picked cubes in as many places as the Raven may take (empty ones dashed): the row keeps
  // its width whatever is picked.
  function ravenSlots(picked, options) {
    const most = Math.max(0, ...options.map((a) => total(a.remove)));
    const out = cubes(picked);
    while (out.length < most) out.push(h("span", { class: "cube placeholder", "aria-hidden": "true" }));
    return total(picked) ? out : [h("span", { class: "sr-only" }, t("ww.raven.none")), ...out];
  }

  function variantContent(action) {
    const take = action.take || {};
    const parts = [];
    for (const source of ["workbench", "outputs", "supply"]) {
      if (take[source] && total(take[source])) parts.push(h("span", { class: "take" }, h("span", { class: "slots" }, cubes(take[source])), " ", t(`ww.from.${source}`)));
    }
    const taken = parts.length ? parts : [h("span", { class: "muted" }, t("ww.take_nothing"))];
    if (action.type === "claim") return [cube(action.ingredient), " ", t("ww.claim_one", { name: ing(action.ingredient) })];
    const result = action.type === "scholar"
      ? h("span", {}, icon("book", arcanaName("book")), " ", ing(action.ingredient))
      : h("span", { class: "slots" }, total(action.make) ? cubes(action.make) : "∅");
    return [h("span", { class: "variant-in" }, taken), h("span", { class: "arrow" }, "➜"), h("span", { class: "variant-out" }, result)];
  }

  function variantLabel(action) {
    const take = action.take || {};
    const sources = ["workbench", "outputs", "supply"].filter((s) => take[s] && total(take[s])).map((s) => `${cubeWords(take[s])} ${t(`ww.from.${s}`)}`);
    if (action.type === "claim") return t("ww.claim_one", { name: ing(action.ingredient) });
    const made = action.type === "scholar" ? `${arcanaName("book")}: ${ing(action.ingredient)}` : cubeWords(action.make);
    return `${sources.join("; ") || t("ww.take_nothing")} → ${made}`;
  }

  function chooserPanel(legal) {
    const chooser = table.chooser;
    const variants = legal.filter((a) => (chooser.kind === "brew" ? a.type === "brew" && a.recipe === chooser.recipe : a.type === chooser.kind));
    if (!variants.length) {
      table.chooser = null;
      return null;
    }
    const title = chooser.kind === "brew" ? t("ww.chooser.brew", { card: cardName(chooser.recipe) }) : t(`ww.chooser.${chooser.kind}`);
    return moves.choose({
      title,
      help: chooser.kind === "brew" ? t("ww.chooser.help") : null,
      overlay: true,
      actions: variants,
      option: (a, i) => ({ key: `variant-${i}`, label: variantLabel(a), content: variantContent(a) }),
      onCancel: table.closeChooser,
      cancelLabel: t("ww.cancel"),
    });
  }

  function brewPanel(legal, view) {
    const out = [h("p", {}, t("ww.prompt.brew"))];
    if (view.brewer !== null && view.brewer !== undefined) out.push(openOrder(view));
    // An open chooser floats over what follows (nothing moves); the rest stays in place under it.
    if (table.chooser) {
      const panel = chooserPanel(legal);
      if (panel) out.push(panel);
    }
    // The same recipes are highlighted on the board below; these save a scroll.
    const recipes = [...new Set(legal.filter((a) => a.type === "brew").map((a) => a.recipe))];
    if (recipes.length) {
      out.push(
        h(
          "div",
          { class: "button-row wrap quick-use" },
          h("span", { class: "small muted" }, t("ww.usable_now")),
          recipes.map((id) => useButton(id, `quick-${id}`, "btn small", cardName(id))),
        ),
      );
    }
    const row = [];
    if (legal.some((a) => a.type === "scholar")) row.push(moves.control(t("ww.scholar"), { kind: "open-scholar", onClick: () => openChooser({ kind: "scholar" }) }));
    if (legal.some((a) => a.type === "claim")) row.push(moves.control(t("ww.claim"), { kind: "open-claim", onClick: () => openChooser({ kind: "claim" }) }));
    // Done cannot be taken back (the engine has no undo): asked once while a recipe, the
    // Scholar or the claim is still open to her; with nothing left to do it goes at once.
    const done = legal.find((a) => a.type === "done");
    const words = { ask: t("ww.confirm.done", { count: recipes.length }), yes: t("ww.confirm.done_yes"), no: t("ww.confirm.keep_brewing") };
    if (done) row.push(moves.confirm(t("ww.done"), done, { words, needed: legal.some((a) => a.type !== "done"), cls: "btn primary", key: "done" }));
    out.push(h("div", { class: "button-row" }, row));
    return out;
  }

  function personalityPanel(legal) {
    return [
      h("p", {}, t("ww.prompt.personality")),
      h(
        "div",
        { class: "offers" },
        legal.filter((a) => a.type === "keep_personality").map((a) => {
          const persona = catalog.personalities[a.personality];
          return card({
            name: personalityName(a.personality),
            body: [
              h("p", { class: "small" }, t(`ww.power.${persona.power}`)),
              h("div", { class: "small" }, t("ww.starts_with"), " ", h("span", { class: "slots" }, cubes(persona.start))),
              ARCANA.some((k) => persona.arcana_on_flip && persona.arcana_on_flip[k]) ? h("div", { class: "small" }, t("ww.arcana_on_flip"), " ", arcanaIcons(persona.arcana_on_flip)) : null,
              persona.recipe ? recipeCard(a.personality, false) : null,
            ],
            foot: moveButton(t("ww.keep"), a, { cls: "btn primary", key: `keep-${a.personality}` }),
            extra: "personality",
            data: { detail: "persona", personality: a.personality },
          });
        }),
      ),
    ];
  }

  function waitingPanel(message) {
    const view = message.view;
    if (view.phase === "over") return [];
    const names = message.to_move.map(name).join(", ");
    const me = mySeat();
    const lines = [];
    if (me === null) lines.push(h("p", { class: "muted" }, t("ww.spectating")));
    else lines.push(myChoice(view, view.players[me]));
    if (names) lines.push(h("p", {}, t("ww.waiting_for", { names })));
    if (view.phase === "brew" && view.brewer !== null && view.brewer !== undefined) lines.push(openOrder(view));
    return lines;
  }

  // What she chose, in sight while she waits for the others (from her own view only): the kept
  // personality, the hidden recipe until the reveal, her production until the pass.
  function myChoice(view, me) {
    if (view.phase === "personality" && me.personality && me.personality !== "hidden") {
      return yourChoice({ title: t("ww.your_choice"), items: h("span", { class: "persona", tabindex: "0", "data-detail": "persona", "data-personality": me.personality }, personalityName(me.personality)), note: t("ww.your_choice_note.personality") });
    }
    if (view.phase === "study" && me.played && me.played !== "hidden") {
      return yourChoice({ title: t("ww.your_choice"), items: recipeCard(me.played.card, me.played.rotated, { testid: "chosen-card" }), note: t("ww.your_choice_note.study") });
    }
    const production = me.production && typeof me.production === "object" ? me.production : null;
    if (view.phase === "brew" && me.done && production) {
      const used = production.used.map((id) => recipeCard(id, rowOf(me).some((e) => e.card === id && e.rotated), { extra: "mini" }));
      return yourChoice({
        title: t("ww.your_production"),
        items: [...used, h("span", { class: "small your-cauldron" }, `${t("ww.cauldron")}: `, h("span", { class: "slots" }, total(production.cauldron) ? cubes(production.cauldron) : t("ww.nothing")))],
        note: t("ww.your_production_note"),
      });
    }
    return null;
  }

  function openOrder(view) {
    // Open production: who brews when, lowest initiative first (rulebook, section 6).
    const order = view.decision_order.map((seat) => {
      const p = view.players[seat];
      const mark = p.done ? " ✓" : seat === view.brewer ? " ✦" : "";
      return `${name(seat)}${mark}`;
    });
    return h("p", { class: "small muted", "data-testid": "brew-order" }, t("ww.brew_order", { names: order.join(" → ") }));
  }

  function finalScreen(message) {
    // Ranked by the result's placings (the tie-breaks order the losers too).
    const result = message.result;
    const view = message.view;
    return endScreen(ctx, result, view.players.map((p) => p.seat), {
      words: {
        headline: winnerHeadline(result, mySeat(), name, { you: t("ww.end.you_win"), shared: (names) => t("ww.end.shared", { names }), wins: (names) => t("ww.end.wins", { names }) }),
        reason: t(`ww.reason.${result.reason}`),
        rematch: t("ww.end.rematch"),
        lobby: t("room.back_to_lobby"),
      },
      line: (seat) => [" — ", t("ww.end.score", { count: result.scores[seat] }), " ", h("span", { class: "slots" }, cubes(view.players[seat].circle))],
    });
  }

  function movePanel(message, me) {
    const legal = message.legal;
    const view = message.view;
    let body;
    if (message.result) return finalScreen(message);
    if (!legal.length) body = waitingPanel(message);
    else if (view.phase === "personality") body = personalityPanel(legal);
    else if (view.phase === "study") body = studyPanel(legal, me);
    else if (legal.some((a) => TRIGGERS.includes(a.type) || a.type === "decline")) body = arcanaPanel(legal, me.production);
    else body = brewPanel(legal, view);
    return moveArea(legal, body);
  }

  // -- the whole table -----------------------------------------------------------------------
  function freshness(message, previous) {
    // What changed since the last message, so it can be animated: new cubes, revealed cards.
    const fresh = { bench: new Map(), circle: new Set(), cards: new Map(), arcana: new Map() };
    if (!previous) return fresh;
    for (const player of message.view.players) {
      const before = previous.view.players[player.seat];
      if (!before) continue;
      fresh.bench.set(player.seat, before.workbench);
      fresh.arcana.set(player.seat, before.arcana);
      if (player.circle_total > before.circle_total) fresh.circle.add(player.seat);
    }
    for (const event of message.events || []) {
      if (event.type === "recipes_revealed") for (const play of event.plays) fresh.cards.set(play.seat, play.card);
    }
    return fresh;
  }

  function passSummary() {
    // Every pass of the last round in words, for players and spectators alike (the flight of the
    // cubes is only a picture).
    if (!ui.passes.length) return null;
    return h(
      "section",
      { class: "pass-summary small", "data-testid": "pass-summary" },
      h("strong", {}, t("ww.last_passes")),
      // (it scrolls on a phone: it takes the keyboard focus)
      h("ul", { tabindex: "0", "aria-label": t("ww.last_passes") }, ui.passes.map((pass) => h("li", { "data-from": pass.from, "data-to": pass.to }, describeEvent(pass)))),
    );
  }

  function phaseLine(view) {
    const phase = t(`ww.phase.${view.phase}`);
    return h(
      "div",
      { class: "phase-line" },
      view.round ? h("span", { class: "round" }, t("ww.round", { round: view.round })) : null,
      h("span", { class: `phase phase-${view.phase}`, "data-testid": "phase" }, phase),
      view.options && view.options.production === "initiative" ? h("span", { class: "chip", "data-testid": "open-production" }, t("ww.open_production")) : null,
      h("span", { class: "muted small" }, t("ww.deck", { count: view.deck_count })),
      h("span", { class: "muted small" }, t("ww.discard", { count: view.discard_count })),
    );
  }

  function draw(message, isNew) {
    const view = message.view;
    const seat = mySeat();
    const me = seat !== null ? view.players[seat] : null;
    const usable = new Set(message.legal.filter((a) => a.type === "brew").map((a) => a.recipe));
    const fresh = isNew && !message.quiet ? freshness(message, table.previous) : freshness(message, null);
    return tableRoot(
      { game: "ww", message, pending: moves.pending, data: { round: view.round } },
      phaseLine(view),
      passSummary(),
      message.result ? movePanel(message, me) : null,
      otherBoards(view.players.length, seat, (other) => board(view.players[other], view, { mine: false, usable, fresh })),
      message.result ? null : movePanel(message, me),
      me && dealt(view) ? hand(me, message.legal) : null,
      me ? board(me, view, { mine: true, usable, fresh }) : null,
    );
  }

  function flyCauldrons(message) {
    const passes = (message.events || []).filter((e) => e.type === "cauldron_passed" && total(e.cubes));
    if (!passes.length || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const pass of passes) {
      // A collapsed opponent's board shows only its head: the flight starts or ends there.
      const shown = (seat, selector) => [`[data-seat="${seat}"] ${selector}`, `[data-seat="${seat}"] .board-head`].map((q) => root.querySelector(q)).find((e) => e && e.getClientRects().length);
      const from = shown(pass.from, ".cauldron");
      const to = shown(pass.to, ".workbench");
      if (!from || !to) continue;
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      const flying = h("div", { class: "flying-cauldron", "aria-hidden": "true", title: describeEvent(pass) }, cubes(pass.cubes), h("span", { class: "small" }, ` → ${name(pass.to)}`));
      flying.style.left = `${a.left}px`;
      flying.style.top = `${a.top}px`;
      document.body.append(flying);
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const flight = flying.animate(
        [
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
          { transform: `translate(${dx / 2}px, ${dy / 2 - 40}px) scale(1.15)`, opacity: 1, offset: 0.5 },
          { transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0 },
        ],
        { duration: 1100, easing: "ease-in-out" },
      );
      flight.onfinish = () => flying.remove();
      setTimeout(() => flying.remove(), 1500);
      if (total(pass.overflow)) {
        const target = root.querySelector(`[data-seat="${pass.from}"] .circle`);
        if (target) target.append(h("span", { class: "overflow-pop" }, `+${total(pass.overflow)}`));
      }
    }
  }

  // A new message: the round's cauldron passes, the Raven's picks that still stand, the recipe
  // chooser only while that recipe can still be brewed.
  function remember(message) {
    const passes = (message.events || []).filter((e) => e.type === "cauldron_passed");
    if (passes.length) ui.passes = passes;
    // Picked Raven cubes stay picked across the others' moves while they are still there.
    const sheet = message.seat !== null && message.view.players[message.seat] ? message.view.players[message.seat].production : null;
    if (!message.legal.some((a) => a.type === "raven") || !sheet || typeof sheet !== "object") ui.raven = [];
    else ui.raven = ui.raven.filter((c) => { const [k, i] = c.split(":"); return +i < sheet.workbench[k]; });
    const chooser = table.chooser;
    if (chooser && chooser.kind === "brew" && !message.legal.some((a) => a.type === "brew" && a.recipe === chooser.recipe)) table.chooser = null;
  }

  return table.renderer;

  // -- the table log in words ----------------------------------------------------------------
  function describeEvent(e) {
    const who = name;
    switch (e.type) {
      case "match_started":
        return t("ww.log.match_started");
      case "round_started":
        return t("ww.log.round_started", { round: e.round });
      case "recipe_chosen":
        return t("ww.log.recipe_chosen", { name: who(e.seat) });
      case "recipes_revealed":
        return t("ww.log.revealed", {
          plays: e.plays.map((p) => {
            let text = `${who(p.seat)}: ${cardName(p.card)}`;
            if (p.rotated) text += ` (${t("ww.turned")})`;
            if (p.random) text += ` (${t("ww.log.random")})`;
            if (p.triggers.length) text += ` ⇒ ${p.triggers.map((k) => t(`ww.trigger.${k}`)).join(", ")}`;
            return text;
          }).join(" · ") || t("ww.nothing"),
        });
      case "personality_kept":
        return t("ww.log.personality_kept", { name: who(e.seat) });
      case "personalities_revealed":
        return t("ww.log.personalities_revealed", { list: e.personalities.map((p, seat) => `${who(seat)}: ${personalityName(p)}`).join(", ") });
      case "cards_drawn":
      case "hand_received":
        return t("ww.log.your_hand", { cards: e.cards.map(cardName).join(", ") || t("ww.nothing") });
      case "hand_swapped":
        return t("ww.log.hand_swapped", { name: who(e.seat) });
      case "random_play":
        return t("ww.log.random_play", { name: who(e.seat) });
      case "random_card":
        return t("ww.log.random_card", { card: cardName(e.card) });
      case "forced_gain":
        return t(total(e.overflow) ? "ww.log.forced_gain_overflow" : "ww.log.forced_gain", { name: who(e.seat), cubes: cubeWords(e.placed), overflow: cubeWords(e.overflow), other: who(e.overflow_to) });
      case "potion_brewed":
        return t("ww.log.potion", { name: ing(e.ingredient) });
      case "raven_removed":
        return t("ww.log.raven", { cubes: cubeWords(e.cubes) });
      case "book_named":
        return t(e.by === "scholar" ? "ww.log.scholar_book" : "ww.log.book", { name: ing(e.ingredient) });
      case "cube_poured":
        return t("ww.log.pour", { name: ing(e.ingredient) });
      case "arcana_declined":
        return t("ww.log.declined", { arcana: t(`ww.trigger.${e.arcana}`) });
      case "brewed":
        return t("ww.log.brewed", { card: cardName(e.recipe), take: variantLabel({ type: "brew", take: e.take, make: e.make }) });
      case "personality_discarded":
        return t("ww.log.personality_discarded", { name: who(e.seat), personality: personalityName(e.personality) });
      case "cube_claimed":
        return t("ww.log.claimed", { name: ing(e.ingredient) });
      case "brewing_done":
        return t("ww.log.brewing_done", { name: who(e.seat) });
      case "production":
        return tn("ww.log.production", e.used.length, { name: who(e.seat), cubes: cubeWords(e.cauldron) });
      case "cauldron_passed": {
        const key = !total(e.cubes) ? "ww.log.cauldron_empty" : total(e.overflow) ? "ww.log.cauldron_overflow" : "ww.log.cauldron";
        return t(key, { from: who(e.from), to: who(e.to), cubes: cubeWords(e.cubes), placed: cubeWords(e.placed), overflow: cubeWords(e.overflow), count: total(e.overflow) });
      }
      case "recipe_turned":
        return t("ww.log.recipe_turned", { name: who(e.seat) });
      case "hands_passed":
        return t("ww.log.hands_passed");
      case "deck_reshuffled":
        return t("ww.log.deck_reshuffled");
      case "deck_empty":
        return t("ww.log.deck_empty");
      case "game_over":
        return tn("ww.log.game_over", e.winners.length, { names: e.winners.map(who).join(", "), reason: t(`ww.reason.${e.reason}`) });
      default:
        return e.type.endsWith("_openly") ? describeOpen(e) : null;
    }
  }

  // Production in initiative order: a witch's brewing steps are public, told in the third person
  // to the others and as her own private steps to herself.
  function describeOpen(e) {
    const step = { ...e, type: e.type.slice(0, -"_openly".length) };
    if (e.seat === mySeat()) return describeEvent(step);
    const who = name(e.seat);
    switch (step.type) {
      case "brewed":
        return t("ww.log.open.brewed", { name: who, card: cardName(e.recipe), take: variantLabel({ type: "brew", take: e.take, make: e.make }) });
      case "potion_brewed":
        return t("ww.log.open.potion", { name: who, ingredient: ing(e.ingredient) });
      case "raven_removed":
        return t("ww.log.open.raven", { name: who, cubes: cubeWords(e.cubes) });
      case "book_named":
        return t(e.by === "scholar" ? "ww.log.open.scholar_book" : "ww.log.open.book", { name: who, ingredient: ing(e.ingredient) });
      case "cube_poured":
        return t("ww.log.open.pour", { name: who, ingredient: ing(e.ingredient) });
      case "arcana_declined":
        return t("ww.log.open.declined", { name: who, arcana: t(`ww.trigger.${e.arcana}`) });
      case "cube_claimed":
        return t("ww.log.open.claimed", { name: who, ingredient: ing(e.ingredient) });
      default:
        return null;
    }
  }
}
