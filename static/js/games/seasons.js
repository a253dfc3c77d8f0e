// Seasons drawn as a table: the season wheel with its marker and the year, this round's dice
// (every face drawn with its icons), each sorcerer's board (crystals, energy reserve, summoning
// gauge, bonus track, cards in play), the hand with its costs and what is affordable now, the
// draft and library screens, and a panel holding exactly the moves in `legal`. Every control
// that makes a move sends an action object taken from `legal`; card ids come from the engine
// and every name or effect text from the i18n files (`se.card.{n}`, `se.effect.{n}`).

import { h } from "../dom.js";
import { has, tn } from "../i18n.js";
import { card, cardBacks, chip, countsInWords, endScreen, handArea, moveArea, otherBoards, playerBoard, tableRoot, token, tokens, total, useStylesheet, winnerHeadline, yourChoice } from "../table.js";
import { loadCatalog, tableRenderer } from "../table_renderer.js";

const ENERGIES = ["air", "water", "fire", "earth"];
const SEASONS = ["winter", "spring", "summer", "autumn"];
const SEASON_OF_MONTH = (month) => SEASONS[Math.floor((Math.max(1, Math.min(12, month)) - 1) / 3)];
const ROMAN = ["", "I", "II", "III", "IV"];
const GAUGE_MAX = 15;
const BONUS_MAX = 3;
const PURSE_OF_IO = 8; // +1 crystal per token transmuted, per copy in play (engine table.token_value)
const CARD_ANSWERS = ["keep_card", "discard_card", "choose_card", "give_card", "draft_pick"];
const ENERGY_ANSWERS = ["gain_energy", "discard_energy", "return_energy", "take_energy"];

export async function createRenderer(ctx) {
  const { t } = ctx;
  useStylesheet("seasons.css");
  const catalog = await loadCatalog("seasons");

  // The open chooser (table.chooser): {kind: "summon", card} | {kind: "activate", slot} |
  // {kind: "transmute"} | {kind: "bonus"}.
  const table = tableRenderer(ctx, {
    selector: ".se",
    draw,
    stage: (message) => `${message.view.phase}:${message.view.tick}:${message.view.pending.length}`,
    detail: { describe: (node) => cardDetail(Number(node.dataset.card)), closeLabel: t("se.close") },
    describe: describeEvent,
  });
  const { moves, mySeat } = table;
  // The log is described again, in order, on every redraw: this follows the order of events.
  let pastTheEnd = false;

  // -- words ---------------------------------------------------------------------------------
  const name = (seat) => ctx.seatName(seat);
  const cardName = (num) => t(`se.card.${num}`);
  const energyName = (e) => t(`se.energy.${e}`);
  const seasonName = (s) => t(`se.season.${s}`);
  const amount = (count, e) => tn(`se.amount.${e}`, count);
  const energyWords = (dict) => countsInWords(dict, ENERGIES, amount, t("se.nothing"));
  const whyWords = (why) => (typeof why === "string" && why.startsWith("card:") ? cardName(why.slice(5)) : null);
  const entryOf = (view, slot) => {
    for (const p of view.seats) for (const e of p.in_play) if (e.id === slot) return { seat: p.seat, entry: e };
    return null;
  };
  const slotName = (slot) => {
    const found = table.message ? entryOf(table.message.view, slot) : null;
    return found ? cardName(found.entry.card) : `#${slot}`;
  };

  // -- tokens, dice and cards ----------------------------------------------------------------
  const energyToken = (e, extra = "") => token("nrg", e, energyName(e), extra);
  const crystal = (extra = "") => token("crystal", "crystal", t("se.crystals"), extra);

  const energyTokens = (dict, extra = "") => tokens("nrg", dict, ENERGIES, energyName, extra);

  function costOf(num, view) {
    const c = catalog.cards[String(num)];
    if (!c) return null;
    const costs = view && view.options && view.options.edition === 1 && c.first_edition ? c.first_edition.cost : c.cost;
    const players = view ? view.players : 2;
    return costs[Math.min(Math.max(players, 2), 4) - 2];
  }

  function costNode(num, view) {
    const c = catalog.cards[String(num)];
    const cost = costOf(num, view);
    if (!c || !cost) return null;
    if (c.choice_cost) return h("span", { class: "cost choice", title: t("se.choice_cost") }, h("span", { class: "small" }, t("se.choice_cost_short")), energyTokens(cost.energy, "small"));
    const parts = energyTokens(cost.energy);
    if (cost.crystals) parts.push(h("span", { class: "crystal-cost", title: t("se.crystals") }, crystal(), String(cost.crystals)));
    if (!parts.length) parts.push(h("span", { class: "small free" }, t("se.free")));
    return h("span", { class: "cost", role: "img", "aria-label": costWords(num, view) }, parts);
  }

  function costWords(num, view) {
    const c = catalog.cards[String(num)];
    const cost = costOf(num, view);
    if (!c || !cost) return "";
    if (c.choice_cost) return t("se.choice_cost");
    const parts = ENERGIES.filter((e) => cost.energy[e]).map((e) => amount(cost.energy[e], e));
    if (cost.crystals) parts.push(tn("se.crystal_count", cost.crystals));
    return parts.length ? parts.join(", ") : t("se.free");
  }

  function seasonCard(num, { extra = "", testid = null, foot = null, text = true, cost = true, view = null, badge = null } = {}) {
    const c = catalog.cards[String(num)];
    if (!c) return card({ name: `#${num}`, extra, testid });
    return card({
      name: cardName(num),
      head: [
        h("span", { class: `kind k-${c.kind}`, title: t(`se.kind.${c.kind}`), "aria-label": t(`se.kind.${c.kind}`) }, c.kind === "familiar" ? "✦" : "◆"),
        h("span", { class: "pp", title: t("se.prestige"), "aria-label": tn("se.pp", c.pp) }, String(c.pp)),
        badge,
      ],
      body: [
        cost ? h("div", { class: "card-cost" }, costNode(num, view || (table.message && table.message.view))) : null,
        text ? h("p", { class: "card-text" }, effectText(num)) : null,
      ],
      foot,
      extra: `se-card k-${c.kind} ${extra}`,
      testid,
      data: { card: String(num), detail: "1" },
    });
  }

  function effectText(num) {
    const c = catalog.cards[String(num)];
    const view = table.message && table.message.view;
    // The 1st edition's #5 and #43 (room option `edition`) read differently.
    if (c && c.first_edition && view && view.options && view.options.edition === 1) return t(`se.effect_first.${num}`);
    return t(`se.effect.${num}`);
  }

  function cardDetail(num) {
    const c = catalog.cards[String(num)];
    if (!c) return null;
    const view = table.message && table.message.view;
    return [
      h("h4", {}, cardName(num)),
      h("p", { class: "small muted" }, `${t(`se.kind.${c.kind}`)} · ${tn("se.pp", c.pp)} · ${t("se.cost")}: ${costWords(num, view)}`),
      h("p", {}, effectText(num)),
    ];
  }

  function faceWords(face) {
    const parts = ENERGIES.filter((e) => face.energy[e]).map((e) => amount(face.energy[e], e));
    if (face.crystals) parts.push(tn("se.crystal_count", face.crystals));
    if (face.gauge) parts.push(tn("se.face.gauge", face.gauge));
    if (face.card) parts.push(t("se.face.card"));
    if (face.transmute) parts.push(t("se.face.transmute"));
    parts.push(tn("se.face.time", face.time));
    return parts.join(", ");
  }

  function dieFace(face, season, extra = "") {
    const icons = energyTokens(face.energy);
    if (face.crystals) icons.push(h("span", { class: "face-crystals" }, crystal(), String(face.crystals)));
    for (let i = 0; i < face.gauge; i += 1) icons.push(h("span", { class: "face-star", "aria-hidden": "true" }, "★"));
    if (face.card) icons.push(h("span", { class: "face-card", "aria-hidden": "true" }));
    const dots = [];
    for (let i = 0; i < face.time; i += 1) dots.push(h("span", { class: "time-dot" }));
    const words = faceWords(face);
    return h(
      "span",
      { class: `die-face s-${season} ${face.transmute ? "transmute" : ""} ${extra}`.trim(), role: "img", "aria-label": words, title: words },
      face.transmute ? h("span", { class: "face-transmute", "aria-hidden": "true" }, "⇄") : null,
      h("span", { class: "face-icons" }, icons),
      h("span", { class: "face-time", "aria-hidden": "true" }, dots),
    );
  }

  // -- the season wheel ----------------------------------------------------------------------
  // After year III the marker has passed the last space: the wheel stays on year III, month 12.
  const shownYear = (view) => Math.min(view.year, 3);
  const shownMonth = (view) => (view.year > 3 ? 12 : view.month);

  function wheel(view) {
    const colours = { winter: "#8fc3ee", spring: "#86cf6e", summer: "#f0c24c", autumn: "#d9773a" };
    const cx = 50, cy = 50, r1 = 46, r0 = 28;
    const point = (r, deg) => {
      const a = ((deg - 90) * Math.PI) / 180;
      return `${(cx + r * Math.cos(a)).toFixed(2)} ${(cy + r * Math.sin(a)).toFixed(2)}`;
    };
    let svg = '<svg viewBox="0 0 100 100" aria-hidden="true">';
    for (let m = 1; m <= 12; m += 1) {
      const a0 = (m - 1) * 30 + 1, a1 = m * 30 - 1;
      const on = m === shownMonth(view);
      svg += `<path d="M${point(r0, a0)} L${point(r1, a0)} A${r1} ${r1} 0 0 1 ${point(r1, a1)} L${point(r0, a1)} A${r0} ${r0} 0 0 0 ${point(r0, a0)}Z" fill="${colours[SEASON_OF_MONTH(m)]}" fill-opacity="${on ? 1 : 0.55}" stroke="${on ? "#fff" : "none"}" stroke-width="1.2"/>`;
    }
    const [mx, my] = point((r0 + r1) / 2, (shownMonth(view) - 0.5) * 30).split(" ");
    svg += `<circle cx="${mx}" cy="${my}" r="5.5" fill="#2a1747" stroke="#fff" stroke-width="1.6"/>`;
    svg += `<text x="50" y="57" text-anchor="middle" font-size="20" font-weight="800" fill="#efe8fb">${ROMAN[shownYear(view)]}</text></svg>`;
    const season = SEASON_OF_MONTH(shownMonth(view));
    const label = t("se.wheel", { year: ROMAN[shownYear(view)], month: shownMonth(view), season: seasonName(season) });
    const node = h("div", { class: "wheel", role: "img", "aria-label": label, title: label, "data-testid": "wheel", "data-month": String(view.month), "data-year": String(view.year) });
    node.innerHTML = svg;
    return node;
  }

  function topLine(view) {
    const values = ENERGIES.map((e) => h("span", { class: "rate", title: tn("se.rate_help", view.transmute_values[e], { energy: energyName(e) }) }, energyToken(e), h("span", {}, `=${view.transmute_values[e]}`), crystal("tiny")));
    return h(
      "section",
      { class: "se-top" },
      wheel(view),
      h(
        "div",
        { class: "se-top-text" },
        h("div", { class: "se-year" }, t("se.year_n", { year: ROMAN[shownYear(view)] }), " · ", h("strong", { class: `season-name s-${view.season}`, "data-testid": "season" }, seasonName(view.year > 3 ? "autumn" : view.season)), " · ", t("se.month_n", { month: shownMonth(view) })),
        h("div", { class: "small muted", "data-testid": "phase" }, t(`se.phase.${view.phase}`), view.round ? ` · ${t("se.round_n", { round: view.round })}` : ""),
        view.phase === "over" ? null : h("div", { class: "rates", role: "group", "aria-label": t("se.rates") }, h("span", { class: "small muted" }, t("se.rates")), values),
        h("div", { class: "small muted" }, t("se.deck", { deck: view.deck_count, discard: view.discard_count })),
      ),
    );
  }

  // -- this round's dice ---------------------------------------------------------------------
  function diceArea(view, legal) {
    if (!view.dice.length || view.phase === "over") return null;
    const takes = new Map(legal.filter((a) => a.type === "take_die").map((a) => [a.die, a]));
    return h(
      "section",
      { class: "dice", "data-testid": "dice", "aria-label": t("se.dice") },
      h("div", { class: "zone-label" }, t("se.dice_of", { season: seasonName(view.round_season) })),
      h(
        "div",
        { class: "dice-row" },
        view.dice.map((d, i) => {
          const take = takes.get(i);
          const face = dieFace(d.face, view.round_season);
          const owner = d.taken_by === null || d.taken_by === undefined ? null : d.taken_by;
          return h(
            "div",
            { class: `die-slot ${owner !== null ? "taken" : ""} ${take ? "takeable" : ""}`.trim(), "data-die": String(i) },
            take
              ? h("button", { class: "die-button", type: "button", "data-action": "take_die", "data-key": `die-${i}`, title: t("se.take_die"), "aria-label": `${t("se.take_die")}: ${faceWords(d.face)}`, disabled: moves.pending, onclick: () => moves.send(take) }, face)
              : face,
            h("span", { class: "small die-owner" }, owner !== null ? name(owner) : take ? t("se.take") : t("se.free_die")),
          );
        }),
      ),
    );
  }

  // -- a sorcerer's board --------------------------------------------------------------------
  function gaugeMeter(p) {
    const cells = [];
    for (let i = 0; i < GAUGE_MAX; i += 1) {
      const state = i < p.in_play.length ? "used" : i < p.gauge ? "open" : "off";
      cells.push(h("span", { class: `gauge-cell ${state}` }));
    }
    const text = tn("se.gauge", p.in_play.length, { gauge: p.gauge });
    return h("div", { class: "gauge", title: t("se.gauge_help"), "aria-label": text, "data-testid": `gauge-${p.seat}` }, h("span", { class: "zone-label" }, t("se.gauge_label")), h("span", { class: "gauge-cells", "aria-hidden": "true" }, cells), h("span", { class: "small" }, `${p.in_play.length}/${p.gauge}`));
  }

  function bonusTrack(p) {
    const pips = [];
    for (let i = 0; i < BONUS_MAX; i += 1) pips.push(h("span", { class: `bonus-pip ${i < p.bonus_used ? "used" : ""}` }));
    const text = t("se.bonus_track", { used: p.bonus_used, max: BONUS_MAX, penalty: p.bonus_penalty });
    return h("div", { class: "bonus-track", role: "img", title: text, "aria-label": text, "data-testid": `bonus-${p.seat}` }, h("span", { class: "zone-label" }, t("se.bonus_label")), pips, p.bonus_penalty ? h("span", { class: "small penalty" }, `−${p.bonus_penalty}`) : null);
  }

  function reserve(p) {
    const count = total(p.energy, ENERGIES);
    const amulet = total(p.amulet_energy, ENERGIES);
    return h(
      "div",
      { class: "reserve", "data-testid": `reserve-${p.seat}`, "data-count": String(count), "aria-label": `${t("se.reserve")}: ${energyWords(p.energy)}` },
      h("span", { class: "zone-label" }, t("se.reserve")),
      h("span", { class: "reserve-tokens" }, count ? energyTokens(p.energy) : h("span", { class: "muted small" }, t("se.empty"))),
      h("span", { class: `small reserve-count ${count >= p.reserve_limit ? "full" : ""}`, title: t("se.reserve_limit_help") }, `${count}/${p.reserve_limit}`),
      amulet ? h("span", { class: "amulet-tokens", title: t("se.amulet_help") }, h("span", { class: "small muted" }, `${cardName(4)}:`), energyTokens(p.amulet_energy, "small")) : null,
    );
  }

  function inPlay(view, p, legal) {
    const mine = p.seat === mySeat();
    const acts = mine ? legal.filter((a) => a.type === "activate") : [];
    if (!p.in_play.length) return h("div", { class: "in-play empty" }, h("span", { class: "muted small" }, t("se.nothing_in_play")));
    return h(
      "div",
      { class: "in-play", "aria-label": t("se.in_play") },
      p.in_play.map((e) => {
        const mineActs = acts.filter((a) => a.slot === e.id);
        const tokensOn = total(e.tokens, ENERGIES);
        let foot = null;
        if (mineActs.length === 1) foot = moves.button(t("se.activate"), mineActs[0], { cls: "btn small use", key: `act-${e.id}`, title: actionLabel(mineActs[0]) });
        else if (mineActs.length > 1) foot = moves.control([t("se.activate"), "…"], { kind: "open-activate", key: `act-${e.id}`, cls: "btn small use", onClick: () => table.openChooser({ kind: "activate", slot: e.id }) });
        return seasonCard(e.card, {
          extra: `mini in-play-card ${e.used ? "used" : ""} ${mineActs.length ? "usable" : ""}`,
          cost: false,
          view,
          badge: e.used ? h("span", { class: "used-badge" }, t("se.used")) : null,
          foot: [tokensOn ? h("div", { class: "on-card" }, energyTokens(e.tokens, "small")) : null, foot],
        });
      }),
    );
  }

  function board(view, seat, message) {
    const p = view.seats[seat];
    const mine = seat === mySeat();
    const turn = view.turn;
    const owes = message.to_move.includes(seat);
    const chips = [
      view.first_player === seat && view.phase !== "over" ? chip(t("se.first_player"), "lead") : null,
      owes && view.phase !== "over" ? chip(view.phase === "turn" && turn && turn.seat === seat && !view.pending.length ? t("se.status.turn") : t("se.status.to_move"), "busy", `status-${seat}`) : null,
      (view.phase === "build" && p.built) || (view.phase === "draft" && p.picked) ? chip(t("se.status.ready"), "ok") : null,
      h("span", { class: "crystal-total", "data-testid": `crystals-${seat}`, title: t("se.crystals"), "aria-label": tn("se.crystal_count", p.crystals) }, crystal(), h("strong", {}, String(p.crystals))),
    ];
    const handCount = p.hand_count;
    // Another seat still building her libraries: her piles are hers ("hidden"), until she confirms.
    const building = p.library_counts === "hidden";
    const libs = Array.isArray(p.library_counts) ? p.library_counts : [0, 0];
    const body = [
      reserve(p),
      h("div", { class: "board-row" }, gaugeMeter(p), bonusTrack(p)),
      h(
        "div",
        { class: "board-row small" },
        h("span", { class: "zone-label" }, t("se.hand")),
        mine ? null : cardBacks(handCount, tn("se.cards_in_hand", handCount)),
        h("span", { class: "muted" }, tn("se.cards_in_hand", handCount)),
        libs[0] || libs[1] ? h("span", { class: "libs muted", "data-testid": `libraries-${seat}` }, t("se.library_counts", { two: libs[0], three: libs[1] })) : null,
        building ? h("span", { class: "libs muted", "data-testid": `libraries-${seat}` }, t("se.libraries_building")) : null,
        view.phase !== "draft" && view.phase !== "build" ? h("span", { class: "score muted", "data-testid": `score-now-${seat}`, title: t("se.score_help", { crystals: p.score.crystals, prestige: p.score.prestige, hand: -p.score.hand, bonus: -p.score.bonus }) }, t("se.score_now", { score: p.score.total })) : null,
      ),
      inPlay(view, p, mine ? message.legal : []),
    ];
    return playerBoard(ctx, seat, { mine, active: owes && view.phase !== "over", chips, body, extra: "se-board", collapsible: true });
  }

  // -- my hand -------------------------------------------------------------------------------
  function hand(view, me, legal) {
    if (!Array.isArray(me.hand) || view.phase === "draft" || view.phase === "build" || view.phase === "over") return null;
    const summons = new Map();
    for (const a of legal) if (a.type === "summon") (summons.get(a.card) || summons.set(a.card, []).get(a.card)).push(a);
    const myTurnMain = view.turn && view.turn.seat === mySeat() && view.turn.step === "main" && !view.pending.length;
    const cards = me.hand.map((num, i) => {
      const ways = summons.get(num) || [];
      let foot;
      if (ways.length === 1) foot = moves.button(t("se.summon"), ways[0], { cls: "btn small primary", key: `summon-${num}-${i}`, title: actionLabel(ways[0]) });
      else if (ways.length > 1) foot = moves.control([t("se.summon"), "…"], { kind: "open-summon", key: `summon-${num}-${i}`, cls: "btn small primary", onClick: () => table.openChooser({ kind: "summon", card: num }) });
      else foot = myTurnMain ? h("span", { class: "small cannot" }, t("se.cannot_afford")) : null;
      return seasonCard(num, { extra: ways.length ? "affordable" : "", testid: "hand-card", view, foot });
    });
    return handArea({ label: t("se.your_hand"), heading: [t("se.your_hand"), " ", h("span", { class: "small muted" }, t("se.hand_help"))], cards, empty: t("se.empty_hand") });
  }

  // -- the Prelude: draft and libraries -----------------------------------------------------
  function draftScreen(view, me, legal) {
    const picks = new Map(legal.filter((a) => a.type === "draft_pick").map((a) => [a.card, a]));
    const offer = Array.isArray(me.draft) ? me.draft : [];
    const kept = Array.isArray(me.hand) ? me.hand : [];
    return h(
      "section",
      { class: "prelude draft", "data-testid": "draft" },
      h("h3", {}, tn("se.draft_title", offer.length)),
      h("p", { class: "small muted" }, picks.size ? t("se.draft_help") : t("se.draft_wait")),
      h(
        "div",
        { class: "hand-cards" },
        offer.map((num, i) => {
          const pick = picks.get(num);
          const picked = me.pick === num;
          return seasonCard(num, { extra: picked ? "kept" : "", view, foot: pick ? moves.button(t("se.pick"), pick, { cls: "btn small primary", key: `pick-${num}-${i}`, title: t("se.pick_card", { card: cardName(num) }) }) : picked ? h("span", { class: "small kept-badge" }, "✓ ", t("se.picked")) : null });
        }),
      ),
      // The card just picked stays in sight while the others pick.
      me.pick !== null && me.pick !== undefined && !picks.size ? yourChoice({ title: t("se.your_choice"), items: seasonCard(me.pick, { extra: "mini", text: false, view }), note: t("se.your_choice_note") }) : null,
      kept.length ? h("div", { class: "kept" }, h("h4", {}, tn("se.kept_n", kept.length)), h("div", { class: "hand-cards" }, kept.map((num) => seasonCard(num, { extra: "mini", text: false, view })))) : null,
    );
  }

  function buildScreen(view, me, legal) {
    const hand = Array.isArray(me.hand) ? me.hand : [];
    const libs = Array.isArray(me.libraries) ? me.libraries : [[], []];
    const moveOf = new Map();
    for (const a of legal) if (a.type === "to_library") moveOf.set(`${a.card}:${a.library}`, a);
    const reset = legal.find((a) => a.type === "reset_libraries");
    const confirm = legal.find((a) => a.type === "confirm_libraries");
    const zone = (label, cards, testid) => h("div", { class: "library", "data-testid": testid }, h("h4", {}, label, ` (${cards.length}/3)`), h("div", { class: "hand-cards" }, cards.length ? cards.map((num) => seasonCard(num, { extra: "mini", text: false, view })) : h("span", { class: "muted small" }, t("se.empty"))));
    return h(
      "section",
      { class: "prelude build", "data-testid": "build" },
      h("h3", {}, t("se.build_title"), " ", h("span", { class: "small muted" }, tn("se.cards_to_place", Math.max(0, hand.length - 3)))),
      h("p", { class: "small muted" }, me.built ? t("se.build_done") : t("se.build_help")),
      h(
        "div",
        { class: "hand-cards" },
        hand.map((num, i) => {
          const two = moveOf.get(`${num}:2`);
          const three = moveOf.get(`${num}:3`);
          const foot = two || three ? h("div", { class: "button-row tight" }, two ? moves.button(t("se.to_year", { year: "II" }), two, { cls: "btn small", key: `lib2-${num}-${i}` }) : null, three ? moves.button(t("se.to_year", { year: "III" }), three, { cls: "btn small", key: `lib3-${num}-${i}` }) : null) : null;
          return seasonCard(num, { view, foot });
        }),
      ),
      h("div", { class: "libraries" }, zone(t("se.library_n", { year: "II" }), libs[0], "library-2"), zone(t("se.library_n", { year: "III" }), libs[1], "library-3")),
      h("div", { class: "button-row" }, confirm ? moves.button(t("se.confirm_libraries"), confirm, { cls: "btn primary", key: "confirm" }) : null, reset ? moves.button(t("se.reset_libraries"), reset, { cls: "btn ghost", key: "reset" }) : null),
    );
  }

  // -- words for any legal action (buttons, chooser options, the fallback list) -------------
  function actionLabel(a) {
    switch (a.type) {
      case "draft_pick":
        return t("se.pick_card", { card: cardName(a.card) });
      case "to_library":
        return t("se.to_year_card", { card: cardName(a.card), year: ROMAN[a.library] });
      case "reset_libraries":
        return t("se.reset_libraries");
      case "confirm_libraries":
        return t("se.confirm_libraries");
      case "take_die":
        return t("se.take_die");
      case "resolve_die":
        return t("se.resolve_die");
      case "summon":
        return [t("se.summon_card", { card: cardName(a.card) }), ...payWords(a)].join(" · ");
      case "activate":
        return [t("se.activate_card", { card: slotName(a.slot) }), ...activationWords(a)].join(" · ");
      case "transmute":
        return t(a.amulet ? "se.transmute_amulet" : "se.transmute_n", { what: amount(a.count, a.energy), crystals: a.count * tokenValue(a.energy) });
      case "bonus":
        return t(`se.bonus.${a.bonus}`);
      case "end_turn":
        return t("se.end_turn");
      case "move_marker":
        return a.by > 0 ? tn("se.answer.forward", a.by) : tn("se.answer.back", -a.by);
      case "choose_player":
        return t("se.answer.choose_player", { name: name(a.seat) });
      case "sacrifice":
        return t("se.answer.sacrifice", { card: slotName(a.slot) });
      case "return_card":
        return t("se.answer.return_card", { card: slotName(a.slot) });
      case "choose":
        if (a.way) return t(`se.answer.way_${a.way}`);
        if (a.count !== undefined) return tn("se.answer.count", a.count);
        return t("se.answer.choose");
      case "pass":
        return t("se.answer.pass");
      default:
        if (ENERGY_ANSWERS.includes(a.type)) return [t(`se.answer.${a.type}`, { energy: energyName(a.energy) }), a.amulet ? t("se.from_amulet") : null].filter(Boolean).join(" · ");
        if (CARD_ANSWERS.includes(a.type)) return t(`se.answer.${a.type}`, { card: cardName(a.card) });
        return t("se.answer.other");
    }
  }

  function payWords(a) {
    const out = [];
    if (a.energies) out.push(t("se.pay_types", { what: a.energies.map(energyName).join(", ") }));
    if (a.reduce && a.reduce.length) out.push(t("se.pay_reduce", { what: a.reduce.map(energyName).join(", ") }));
    if (a.amulet) out.push(t("se.pay_amulet", { what: energyWords(a.amulet) }));
    return out;
  }

  function activationWords(a) {
    const out = [];
    if (a.use) out.push(t(`se.use.${a.use}`));
    if (a.energy) out.push(a.into ? t("se.energy_into", { from: energyName(a.energy), to: energyName(a.into) }) : energyName(a.energy));
    if (a.discard !== undefined) out.push(t("se.answer.discard_card", { card: cardName(a.discard) }));
    if (a.sacrifice !== undefined) out.push(t("se.answer.sacrifice", { card: slotName(a.sacrifice) }));
    if (a.amulet) out.push(t("se.pay_amulet", { what: energyWords(a.amulet) }));
    return out;
  }

  function tokenValue(energy) {
    const view = table.message.view;
    const me = view.seats[mySeat()];
    const purses = me ? me.in_play.filter((e) => e.card === PURSE_OF_IO).length : 0;
    return (view.transmute_values[energy] || 0) + ((view.turn && view.turn.transmute_bonus) || 0) + purses;
  }

  function actionContent(a) {
    if (ENERGY_ANSWERS.includes(a.type)) return [energyToken(a.energy), " ", actionLabel(a)];
    if (a.type === "transmute") return [energyToken(a.energy), ` ×${a.count} → `, crystal(), ` ${a.count * tokenValue(a.energy)}`, a.amulet ? ` (${cardName(4)})` : ""];
    return actionLabel(a);
  }

  // -- the move panel ------------------------------------------------------------------------
  function optionsChooser(title, options, help = null) {
    return moves.choose({
      title,
      help,
      actions: options,
      option: (a, i) => ({ key: `opt-${i}`, label: actionLabel(a), content: actionContent(a) }),
      onCancel: table.closeChooser,
      cancelLabel: t("se.cancel"),
      overlay: true, // opened by a click: over the page, nothing moves
    });
  }

  function openChooser(view, legal) {
    const c = table.chooser;
    if (!c) return null;
    if (c.kind === "summon") {
      const ways = legal.filter((a) => a.type === "summon" && a.card === c.card);
      if (ways.length) return optionsChooser(t("se.choose_payment", { card: cardName(c.card) }), ways);
    }
    if (c.kind === "activate") {
      const ways = legal.filter((a) => a.type === "activate" && a.slot === c.slot);
      if (ways.length) return optionsChooser(t("se.choose_activation", { card: slotName(c.slot) }), ways);
    }
    if (c.kind === "transmute") {
      const ways = legal.filter((a) => a.type === "transmute");
      if (ways.length) return optionsChooser(t("se.choose_transmute"), ways, t("se.transmute_help"));
    }
    if (c.kind === "bonus") {
      const ways = legal.filter((a) => a.type === "bonus");
      if (ways.length) return optionsChooser(t("se.choose_bonus"), ways, t("se.bonus_help", { penalty: bonusNext(view) }));
    }
    return null;
  }

  // The penalty after one more bonus action: the rulebook's −5 / −12 / −20 (engine
  // readings.BONUS_PENALTY); the view gives only the penalty so far.
  function bonusNext(view) {
    const me = view.seats[mySeat()];
    return { 0: 5, 1: 12, 2: 20 }[me ? me.bonus_used : 0] || 20;
  }

  function questionPanel(view, top, legal, used) {
    const why = whyWords(top.why);
    const params = { count: top.count || 1, card: why || "", name: name(top.seat) };
    const out = [h("p", { class: "prompt" }, has(`se.q.${top.kind}`) ? t(`se.q.${top.kind}`, params) : t("se.q.other")), why ? h("p", { class: "small muted" }, t("se.because_of", { card: why })) : null];
    const cardAnswers = legal.filter((a) => CARD_ANSWERS.includes(a.type));
    const secret = top.secret && top.secret !== "hidden" ? top.secret.cards || [] : [];
    if (cardAnswers.length || secret.length) {
      const nums = [...new Set([...secret, ...cardAnswers.map((a) => a.card)])];
      out.push(
        h(
          "div",
          { class: "hand-cards question-cards" },
          nums.map((num) => {
            const mine = cardAnswers.filter((a) => a.card === num);
            for (const a of mine) used.add(a);
            return seasonCard(num, { view, foot: mine.length ? h("div", { class: "button-row tight" }, mine.map((a, i) => moves.button(t(`se.short.${a.type}`), a, { cls: `btn small ${a.type === "discard_card" ? "ghost" : "primary"}`, key: `${a.type}-${num}-${i}`, title: actionLabel(a) }))) : null });
          }),
        ),
      );
    }
    const rest = legal.filter((a) => !used.has(a));
    for (const a of rest) used.add(a);
    if (rest.length) out.push(h("div", { class: "button-row wrap answers" }, rest.map((a, i) => moves.button("", a, { cls: "btn option", key: `ans-${i}`, title: actionLabel(a), content: actionContent(a) }))));
    return out;
  }

  function turnPanel(view, legal, used) {
    const turn = view.turn;
    const out = [];
    const resolve = legal.find((a) => a.type === "resolve_die");
    const end = legal.find((a) => a.type === "end_turn");
    const me = view.seats[mySeat()];
    const die = me && me.die !== null && me.die !== undefined ? view.dice[me.die] : null;
    if (turn.step === "die") {
      out.push(h("p", { class: "prompt" }, t("se.prompt.die")));
      if (die) out.push(h("div", { class: "my-die" }, dieFace(die.face, view.round_season, "big"), h("span", { class: "small" }, faceWords(die.face))));
    } else {
      out.push(h("p", { class: "prompt" }, t("se.prompt.main")));
      out.push(h("p", { class: "small muted" }, turn.may_transmute ? t("se.may_transmute") : t("se.no_transmute")));
    }
    const opened = openChooser(view, legal);
    if (opened) {
      out.push(opened);
      for (const a of legal) if (["summon", "activate", "transmute", "bonus"].includes(a.type)) used.add(a);
    }
    const transmutes = legal.filter((a) => a.type === "transmute");
    const bonuses = legal.filter((a) => a.type === "bonus");
    const dieBonus = turn.step === "die" ? bonuses : [];
    for (const a of legal) if (["summon", "activate"].includes(a.type)) used.add(a); // drawn on the cards
    const buttons = [];
    if (resolve) { used.add(resolve); buttons.push(moves.button(t("se.resolve_die"), resolve, { cls: "btn primary", key: "resolve" })); }
    for (const a of dieBonus) { used.add(a); buttons.push(moves.button(t(`se.bonus.${a.bonus}`), a, { cls: "btn", key: `bonus-${a.bonus}` })); }
    if (transmutes.length && !opened) {
      for (const a of transmutes) used.add(a);
      buttons.push(moves.control([t("se.transmute"), "…"], { kind: "open-transmute", key: "open-transmute", onClick: () => table.openChooser({ kind: "transmute" }) }));
    }
    if (bonuses.length && turn.step === "main" && !opened) {
      for (const a of bonuses) used.add(a);
      buttons.push(moves.control([t("se.bonus_action"), "…"], { kind: "open-bonus", key: "open-bonus", cls: "btn ghost", onClick: () => table.openChooser({ kind: "bonus" }) }));
    }
    // Ending the turn cannot be taken back: asked once while a card could still be summoned or activated.
    const more = legal.some((a) => a.type === "summon" || a.type === "activate");
    if (end) { used.add(end); buttons.push(moves.confirm(t("se.end_turn"), end, { words: { ask: t("se.confirm.end_turn"), yes: t("se.confirm.end_turn_yes"), no: t("se.cancel") }, needed: more, cls: "btn primary", key: "end-turn" })); }
    out.push(h("div", { class: "button-row" }, buttons));
    return out;
  }

  function waitingPanel(message) {
    const view = message.view;
    const lines = [];
    if (mySeat() === null) lines.push(h("p", { class: "muted", "data-testid": "spectating" }, t("se.spectating")));
    const names = message.to_move.map(name).join(", ");
    const top = view.pending.length ? view.pending[view.pending.length - 1] : null;
    if (top && names) lines.push(h("p", {}, t("se.waiting_answer", { names })));
    else if (names) lines.push(h("p", {}, t(`se.waiting.${view.phase}`, { names })));
    return lines;
  }

  function movePanel(message, me) {
    const { legal, view } = message;
    const used = new Set();
    let body = [];
    const top = view.pending.length ? view.pending[view.pending.length - 1] : null;
    if (!legal.length) body = waitingPanel(message);
    else if (top && top.seat === mySeat()) body = questionPanel(view, top, legal, used);
    else if (view.phase === "draft" || view.phase === "build") {
      for (const a of legal) used.add(a); // drawn on the prelude screen, which says what to do
      return null;
    } else if (view.phase === "dice") {
      for (const a of legal) if (a.type === "take_die") used.add(a);
      body = [h("p", { class: "prompt" }, t("se.prompt.dice"))];
    } else if (view.phase === "turn" && view.turn) body = turnPanel(view, legal, used);
    // Whatever the table did not draw still gets a button: no legal move is ever out of reach.
    const rest = legal.filter((a) => !used.has(a));
    if (rest.length) body.push(h("div", { class: "button-row wrap other-moves" }, rest.map((a, i) => moves.button("", a, { cls: "btn option", key: `other-${i}`, title: actionLabel(a), content: actionContent(a) }))));
    if (me && view.phase !== "draft" && view.phase !== "build" && Array.isArray(me.libraries) && (me.libraries[0].length || me.libraries[1].length)) {
      body.push(h("details", { class: "my-libraries", "data-testid": "my-libraries" }, h("summary", { class: "small" }, t("se.my_libraries")), me.libraries.map((lib, k) => lib.length ? h("div", { class: "library" }, h("h4", {}, t("se.library_n", { year: ROMAN[k + 2] })), h("div", { class: "hand-cards" }, lib.map((num) => seasonCard(num, { extra: "mini", text: false, view })))) : null)));
    }
    return moveArea(legal, body);
  }

  function finalScreen(message) {
    const result = message.result;
    const seats = message.view.seats.map((p) => p.seat);
    const parts = (result.details && result.details.parts) || [];
    return endScreen(ctx, result, seats, {
      words: {
        headline: winnerHeadline(result, mySeat(), name, { you: t("se.end.you_win"), shared: (names) => t("se.end.shared", { names }), wins: (names) => t("se.end.wins", { names }) }),
        reason: t(`se.reason.${result.reason}`),
        place: (n) => t("se.end.place", { place: n }),
        rematch: t("se.end.rematch"),
        lobby: t("room.back_to_lobby"),
      },
      line: (seat) => {
        const p = parts[seat] || {};
        return [
          h("span", {}, tn("se.end.score", result.scores[seat])),
          h("span", { class: "small muted" }, t("se.end.details", { crystals: p.crystals ?? 0, prestige: p.prestige ?? 0, hand: p.hand ?? 0, bonus: p.bonus ?? 0 })),
        ];
      },
    });
  }

  // -- the whole table -----------------------------------------------------------------------
  function draw(message) {
    const view = message.view;
    const seat = mySeat();
    const me = seat !== null && seat !== undefined ? view.seats[seat] : null;
    const over = Boolean(message.result);
    const prelude = me && !over && (view.phase === "draft" || view.phase === "build");
    return tableRoot(
      { game: "se", message, pending: moves.pending, extra: `season-${view.season}`, data: { year: view.year, round: view.round } },
      topLine(view),
      over ? finalScreen(message) : null,
      otherBoards(view.players, me ? seat : null, (s) => board(view, s, message)),
      diceArea(view, message.legal),
      over ? null : movePanel(message, me),
      prelude && view.phase === "draft" ? draftScreen(view, me, message.legal) : null,
      prelude && view.phase === "build" ? buildScreen(view, me, message.legal) : null,
      me ? hand(view, me, message.legal) : null,
      me ? board(view, seat, message) : null,
    );
  }

  return table.renderer;

  // -- the table log in words ----------------------------------------------------------------
  // An event's energy is one type (with a count) or a {type: n} dictionary (#26, #47, …).
  function energyOf(energy, count = 1) {
    return energy && typeof energy === "object" ? energyWords(energy) : amount(count, energy);
  }

  function describeEvent(e) {
    const why = whyWords(e.why);
    const by = why ? ` (${why})` : "";
    switch (e.type) {
      case "match_started":
        return e.level ? t("se.log.match_started", { level: t(`se.level.${e.level}`) }) : null; // the room's own line
      case "draft_passed":
        return t("se.log.draft_passed");
      case "draft_over":
        return t("se.log.draft_over");
      case "libraries_built":
        return t("se.log.libraries_built", { name: name(e.seat) });
      case "round_started":
        return t("se.log.round_started", { round: e.round, year: ROMAN[e.year] || e.year, season: seasonName(e.season), name: name(e.first_player) });
      case "die_taken":
        return t("se.log.die_taken", { name: name(e.seat) });
      case "die_resolved": // what it gave follows, line by line
        return e.face ? t("se.log.die_resolved_face", { name: name(e.seat), face: faceWords(e.face) }) : t("se.log.die_resolved", { name: name(e.seat) });
      case "die_rerolled":
        return e.face ? t("se.log.die_rerolled_face", { name: name(e.seat), face: faceWords(e.face) }) : t("se.log.die_rerolled", { name: name(e.seat) });
      case "card_drawn":
        return tn("se.log.card_drawn", e.count, { name: name(e.seat) });
      case "cards_to_hand":
        return tn("se.log.cards_to_hand", e.count, { name: name(e.seat) }) + by;
      case "card_discarded":
        return tn("se.log.card_discarded", e.count, { name: name(e.seat) }) + by;
      case "energy_gained":
        return t("se.log.energy_gained", { name: name(e.seat), what: energyWords(e.energy) }) + by;
      case "energy_chosen":
        return t("se.log.energy_gained", { name: name(e.seat), what: energyOf(e.energy) }) + by;
      case "energy_discarded":
        return t("se.log.energy_discarded", { name: name(e.seat), what: energyOf(e.energy) }) + (e.why === "reserve_limit" ? ` (${t("se.reserve_limit")})` : by);
      case "energy_exchanged":
        if (e.returned || e.taken) return t("se.log.energy_turned", { name: name(e.seat), from: energyWords(e.returned), to: energyWords(e.taken) }) + by;
        return t(e.action === "return_energy" ? "se.log.energy_returned" : "se.log.energy_taken", { name: name(e.seat), what: energyOf(e.energy) });
      case "reserve_changed":
        return e.lost ? t("se.log.reserve_lost", { name: name(e.seat), what: energyWords(e.lost) }) + by : null;
      case "crystals_gained":
        return tn("se.log.crystals_gained", e.crystals, { name: name(e.seat) }) + by;
      case "crystals_lost":
        return tn("se.log.crystals_lost", e.crystals, { name: name(e.seat) }) + by;
      case "crystals_given":
        return tn("se.log.crystals_given", e.crystals, { name: name(e.from), to: name(e.to) }) + by;
      case "gauge_changed":
        return t("se.log.gauge_changed", { name: name(e.seat), gauge: e.gauge }) + by;
      case "bonus_used":
        return t("se.log.bonus_used", { name: name(e.seat), bonus: t(`se.bonus.${e.bonus}`) });
      case "transmuted":
        return t("se.log.transmuted", { name: name(e.seat), what: energyOf(e.energy, e.count), crystals: e.crystals }) + by;
      case "card_summoned":
        return t("se.log.card_summoned", { name: name(e.seat), card: cardName(e.card) });
      case "card_put_into_play":
        return t("se.log.card_put_into_play", { name: name(e.seat), card: cardName(e.card) }) + by;
      case "card_activated":
        return t("se.log.card_activated", { name: name(e.seat), card: cardName(e.card) });
      case "card_sacrificed":
        return t("se.log.card_sacrificed", { name: name(e.seat), card: cardName(e.card) });
      case "card_returned":
        return t("se.log.card_returned", { name: name(e.seat), card: cardName(e.card) });
      case "card_moved":
        return t("se.log.card_moved", { card: cardName(e.card), name: name(e.from), to: name(e.to) });
      case "card_revealed":
        return t("se.log.card_revealed", { name: name(e.seat), card: cardName(e.card) }) + by;
      case "marker_moved":
        // The last round moves the marker past year III's last space: the engine's year 4.
        pastTheEnd = e.year > 3;
        if (pastTheEnd) return t("se.log.marker_past_end");
        return t("se.log.marker_moved", { month: e.month, year: ROMAN[e.year] || e.year, season: seasonName(e.season) });
      case "year_changed":
        if (e.year > 3) return null;
        return t("se.log.year_changed", { year: ROMAN[e.year] || e.year });
      case "season_changed":
        if (pastTheEnd) return null;
        return t("se.log.season_changed", { season: seasonName(e.season) });
      case "deck_reshuffled":
        return t("se.log.deck_reshuffled");
      case "deck_empty":
        return t("se.log.deck_empty");
      case "game_over":
        return tn("se.log.game_over", e.winners.length, { names: e.winners.map(name).join(", ") });
      case "you_drew":
      case "cards_received":
        return e.cards && e.cards.length ? t("se.log.you_got", { cards: e.cards.map(cardName).join(", ") }) : null;
      case "cards_dealt":
        return e.cards && e.cards.length ? t("se.log.you_were_dealt", { cards: e.cards.map(cardName).join(", ") }) : null;
      default:
        return null; // draft_picked, turn_started, turn_ended, draft_offer, …: the table shows them
    }
  }
}
