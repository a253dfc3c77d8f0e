// Witch's Brew drawn as a table: each witch's play area (drops, gold, potion cards, vials when
// she may see them, her hand as card backs), the five potion stacks, the spell book, the ravens
// towards the end, the round's face-up claim with every answer ("I am the …!", "So be it!",
// pass), and a panel with exactly the moves in `legal`. Every control that makes a move sends
// an action object taken from `legal`.

import { h } from "../dom.js";
import { tn } from "../i18n.js";
import { card, cardBacks, chip, countsInWords, endScreen, handArea, icon, moveArea, otherBoards, phoneRow, playerBoard, scrollsOnPhone, seatsAround, tableRoot, token, tokenPile, tokens, useStylesheet, winnerHeadline, yourChoice } from "../table.js";
import { loadCatalog, tableRenderer } from "../table_renderer.js";

const DROPS = ["red", "white", "green"];
const RESOURCES = ["red", "white", "green", "any_drops", "gold", "vials"];

export async function createRenderer(ctx) {
  const { t } = ctx;
  useStylesheet("brew.css");
  const catalog = await loadCatalog("witchs-brew");
  const ROLE_IDS = Object.keys(catalog.roles);
  const CARDS = {};
  // (the box's printed cards too, where the server loaded them: engine/brew/cards.py)
  for (const stack of [...catalog.stacks, ...(catalog.printed_stacks || [])]) for (const c of stack.cards) CARDS[c.id] = c;

  const ui = {
    lastRound: null, // {role, claimant, outcome}: the round just finished, until the next lead
    fresh: new Set(), // answers new in this message ("seat:answer"), to animate
    took: new Map(), // seat -> what her favor gave her this round, in words (from the events)
  };
  // The open chooser (table.chooser) is {kind: "favor"}: the favor's variants (act and buy show
  // theirs at once).
  const table = tableRenderer(ctx, {
    selector: ".wb",
    draw,
    stage: (message) => `${message.view.set}:${message.view.phase}:${message.view.round}`,
    onMessage: remember,
    detail: { describe: (node) => describeCard(node), closeLabel: t("wb.close") },
    describe: describeEvent,
  });
  const { moves, mySeat } = table;

  // -- words ---------------------------------------------------------------------------------
  const name = (seat) => ctx.seatName(seat);
  // A person's seat with no page open at the table, and no bot playing for it.
  const awayFromTable = (seat) => {
    const info = ctx.seatInfo ? ctx.seatInfo(seat) : null;
    return Boolean(info && !info.bot && !info.away && !info.connected);
  };
  const roleName = (id) => t(`wb.role.${id}`);
  const announce = (id) => t(`wb.announce.${id}`);
  const spellName = (id) => t(`wb.spell.${id}`);
  const stackName = (id) => t(`wb.stack.${id}`);
  const resName = (kind) => t(`wb.res.${kind}`);
  const amount = (count, kind) => tn(`wb.amount.${kind}`, count);
  const amounts = (dict) => countsInWords(dict, RESOURCES, amount, t("wb.nothing"));
  // The thieves' favor is a room option (engine/brew/options.py: thief_favor).
  const favorText = (id) => {
    const options = (table.message && table.message.view.options) || {};
    return options.thief_favor === "buy" && (id === "cutpurse" || id === "begging_monk") ? t(`wb.role_favor_buy.${id}`) : t(`wb.role_favor.${id}`);
  };
  const cardWords = (id) => {
    const c = CARDS[id];
    return c ? t("wb.card_words", { stack: stackName(c.stack), vp: c.vp }) : id;
  };

  function describeCard(node) {
    const kind = node.dataset.detail;
    if (kind === "role") return roleDetail(node.dataset.role);
    if (kind === "spell") return spellDetail(node.dataset.spell);
    if (kind === "potion") return potionDetail(CARDS[node.dataset.card]);
    return null;
  }

  function roleDetail(id) {
    if (!catalog.roles[id]) return null;
    // The Warlock's full action is the spell on top of the book: say which.
    const spell = id === "warlock" && table.message ? table.message.view.spell.top : null;
    return [
      h("h4", {}, roleName(id)),
      h("p", {}, h("strong", {}, t("wb.full_action")), " ", t(`wb.role_full.${id}`)),
      spell ? h("p", { class: "small" }, icon("book"), ` ${spellName(spell)}: ${t(`wb.spell_text.${spell}`)}`) : null,
      h("p", {}, h("strong", {}, t("wb.favor")), " ", favorText(id)),
    ];
  }

  function spellDetail(id) {
    if (!id) return null;
    return [h("h4", {}, spellName(id)), h("p", {}, t(`wb.spell_text.${id}`)), h("p", { class: "small muted" }, t("wb.spell_help"))];
  }

  function potionDetail(c) {
    if (!c) return null;
    return [
      h("h4", {}, stackName(c.stack)),
      h("p", { class: "small muted" }, tn("wb.vp_n", c.vp)),
      h("p", {}, amounts(c.cost)),
      c.raven ? h("p", { class: "small" }, icon("raven"), " ", t("wb.raven_card")) : null,
    ];
  }

  // -- tokens and cards ----------------------------------------------------------------------
  const drop = (colour, extra = "") => token("drop", colour, resName(colour), extra);
  const coin = (extra = "") => token("coin", "gold", resName("gold"), extra);
  const vial = (extra = "") => token("vial", "vials", resName("vials"), extra);

  function costTokens(cost) {
    const out = tokens("drop", cost, DROPS, resName);
    for (let i = 0; i < (cost.gold || 0); i += 1) out.push(coin());
    for (let i = 0; i < (cost.any_drops || 0); i += 1) out.push(token("drop", "any", resName("any_drops")));
    return h("span", { class: "cost" }, out);
  }

  function potionCard(c, { extra = "", testid = null } = {}) {
    if (!c) return null;
    return card({
      name: stackName(c.stack),
      head: [
        h("span", { class: "vp", title: t("wb.vp_help"), "aria-label": tn("wb.vp_n", c.vp) }, String(c.vp)),
        c.raven ? h("span", { class: "raven-mark" }, icon("raven", t("wb.raven_card"))) : null,
      ],
      body: h("div", { class: "card-face" }, costTokens(c.cost)),
      extra: `potion p-${c.stack} ${c.raven ? "has-raven" : ""} ${extra}`,
      testid,
      data: { card: c.id, detail: "potion" },
    });
  }

  function roleCard(id, { extra = "", testid = null, texts = true, badge = null } = {}) {
    const role = catalog.roles[id];
    return card({
      name: roleName(id),
      head: [h("span", { class: "role-dot", "aria-hidden": "true" }), badge],
      body: texts
        ? h(
            "div",
            { class: "role-texts" },
            h("p", { class: "role-full" }, h("strong", {}, t("wb.full_action")), " ", t(`wb.role_full.${id}`)),
            h("p", { class: "role-favor" }, h("strong", {}, t("wb.favor")), " ", favorText(id)),
          )
        : null,
      extra: `role r-${role ? role.colour : "gray"} ${extra}`,
      testid,
      data: { role: id },
    });
  }

  function roleChip(id, extra = "") {
    const role = catalog.roles[id];
    return h("span", { class: `role-chip r-${role ? role.colour : "gray"} ${extra}`.trim(), "data-role": id, "data-detail": "role", tabindex: "0" }, roleName(id));
  }

  // -- the middle of the table ---------------------------------------------------------------
  function phaseLine(view) {
    return h(
      "div",
      { class: "phase-line" },
      h("span", { class: "round" }, t("wb.set_n", { set: view.set })),
      view.round ? h("span", { class: "muted" }, t("wb.round_n", { round: view.round })) : null,
      h("span", { class: `phase phase-${view.phase}`, "data-testid": "phase" }, t(`wb.phase.${view.phase}`)),
      view.variant && view.variant.blocked.length
        ? h("span", { class: "blocked-line small", "data-testid": "blocked" }, t("wb.blocked_roles"), " ", view.variant.blocked.map((r) => roleChip(r, "blocked-chip")))
        : null,
      ravenMeter(view),
    );
  }

  function ravenMeter(view) {
    const marks = [];
    for (let i = 0; i < Math.max(view.raven_threshold, view.ravens); i += 1) marks.push(h("span", { class: `raven-slot ${i < view.ravens ? "taken" : ""}` }, icon("raven")));
    const text = t("wb.ravens", { count: view.ravens, threshold: view.raven_threshold });
    return h("span", { class: `raven-meter ${view.ravens >= view.raven_threshold ? "full" : ""}`, "data-testid": "ravens", "data-count": String(view.ravens), title: t("wb.ravens_help"), "aria-label": text }, marks, h("span", { class: "small" }, text));
  }

  function spellBook(view) {
    const top = view.spell.top;
    return h(
      "section",
      { class: "spell-book", "data-testid": "spell", "data-spell": top, "data-detail": "spell" },
      h("div", { class: "zone-label" }, t("wb.spell_book")),
      h("div", { class: "spell-name" }, icon("book"), " ", spellName(top)),
      h("p", { class: "small" }, t(`wb.spell_text.${top}`)),
      h("p", { class: "small muted spell-help" }, t("wb.spell_help")),
    );
  }

  function potionStacks(view) {
    return h(
      "section",
      { class: "stacks", "aria-label": t("wb.stacks") },
      view.stacks.map((stack) =>
        h(
          "div",
          { class: `stack s-${stack.kind} depth-${Math.min(stack.count, 4)}`, "data-testid": `stack-${stack.id}`, "data-count": String(stack.count) },
          h("div", { class: "zone-label" }, stackName(stack.id)),
          stack.top ? potionCard(stack.top, { extra: "top" }) : h("div", { class: "card empty-stack" }, t("wb.stack_empty")),
          h("div", { class: "small muted stack-count" }, tn("wb.cards_left", stack.count)),
        ),
      ),
      // That the values are our reconstruction is said in the rules and the game's description,
      // not at the table; a table of the box's printed values says so (room option potion_values).
      view.options && view.options.potion_values === "printed" ? h("p", { class: "small muted stacks-note", "data-testid": "printed-values" }, t("wb.printed_cards")) : null,
    );
  }

  // The round's claim: the face-up role, the leader's announcement and every answer so far.
  function claimArea(view, message) {
    const cur = view.current;
    if (!cur) return lastRoundArea(view);
    const answered = new Set(cur.answers.map((a) => a.seat));
    const order = seatsAround(view.players_count, cur.leader);
    const claimants = [cur.leader, ...cur.answers.filter((a) => a.answer === "claim").map((a) => a.seat)];
    const bubble = (seat, answer) => {
      const holds = seat === cur.claimant;
      const outbid = !holds && claimants.includes(seat);
      const fresh = ui.fresh.has(`${seat}:${answer}`);
      const words = answer === "lead" || answer === "claim" ? announce(cur.role) : answerWords(answer);
      return h(
        "li",
        { class: `answer a-${answer} ${holds ? "holds" : ""} ${outbid ? "outbid" : ""} ${fresh ? "fresh" : ""}`.trim(), "data-seat": seat, "data-answer": answer },
        h("span", { class: "answer-who" }, name(seat)),
        h("span", { class: "bubble" }, words),
        holds ? h("span", { class: "crown" }, icon("crown"), " ", t("wb.holds_claim")) : null,
        outbid ? h("span", { class: "small muted" }, t("wb.outbid")) : null,
        answer === "favor" && ui.took.has(seat) ? h("span", { class: "answer-what" }, ui.took.get(seat)) : null,
      );
    };
    const items = [bubble(cur.leader, "lead")];
    for (const a of cur.answers) items.push(bubble(a.seat, a.answer));
    for (const seat of order) {
      if (answered.has(seat)) continue;
      const now = seat === cur.responder;
      items.push(
        h(
          "li",
          { class: `answer a-waiting ${now ? "now" : ""}`, "data-seat": seat, "data-answer": "waiting" },
          h("span", { class: "answer-who" }, name(seat)),
          // (a player whose every page is closed is not thinking: she is away)
          h("span", { class: "bubble" }, now ? (awayFromTable(seat) ? t("room.seat_away") : t("wb.thinking")) : "…"),
        ),
      );
    }
    // A claim taken over in this very message is called out, so the table feels the bidding.
    const takeover = cur.answers.filter((a) => a.answer === "claim" && ui.fresh.has(`${a.seat}:claim`)).pop();
    const before = takeover ? claimants[claimants.indexOf(takeover.seat) - 1] : null;
    let after = null;
    // The claimant reads her full action or her purchase in her moves panel already; the line
    // is for the others (on a phone it was the same sentence twice, one screen apart).
    const hers = cur.claimant === mySeat();
    if (view.phase === "act" && !hers) after = t("wb.full_action_due", { name: name(cur.claimant), role: roleName(cur.role) });
    if (view.phase === "tribute") after = t("wb.tribute_due", { name: name(cur.claimant), names: cur.givers.map(name).join(", ") });
    if (view.phase === "shelf" && !hers) after = t("wb.shelf_due", { name: name(cur.claimant), stack: stackName(cur.role === "cutpurse" ? "gold_shelf" : "ingredient_shelf") });
    return h(
      "section",
      { class: "claim", "data-testid": "claim", "data-role": cur.role, "data-claimant": String(cur.claimant) },
      h("div", { class: "zone-label" }, t("wb.this_round", { round: view.round })),
      takeover ? h("p", { class: "takeover", "data-testid": "takeover" }, takeoverWords(takeover.seat, before)) : null,
      h(
        "div",
        { class: "claim-body" },
        roleCard(cur.role, { extra: `face-up ${ui.fresh.has(`${cur.leader}:lead`) ? "flip-in" : ""}` }),
        h("ol", { class: "answers", "data-testid": "answers" }, items),
      ),
      after ? h("p", { class: "claim-after" }, after) : null,
      cur.exempt && cur.exempt.length ? h("p", { class: "small muted" }, t("wb.exempt", { names: cur.exempt.map(name).join(", ") })) : null,
      ledThisSet(view),
    );
  }

  function takeoverWords(seat, previous) {
    const me = mySeat();
    if (seat === me) return t("wb.takeover_you", { previous: name(previous) });
    if (previous === me) return t("wb.takeover_from_you", { name: name(seat) });
    return t("wb.takeover", { name: name(seat), previous: name(previous) });
  }

  function lastRoundArea(view) {
    const last = ui.lastRound;
    if (!last) return null;
    return h(
      "section",
      { class: "claim last", "data-testid": "last-round" },
      h("div", { class: "zone-label" }, t("wb.last_round")),
      h("div", { class: "claim-body" }, roleChip(last.role), h("p", {}, last.outcome)),
      ledThisSet(view),
    );
  }

  function ledThisSet(view) {
    // Every holder must answer the role called, so a role led once is out for the whole set.
    const led = view.roles_led || [];
    if (!led.length) return null;
    return h("p", { class: "led small", "data-testid": "roles-led" }, h("span", { class: "zone-label" }, t("wb.led_this_set")), " ", led.map((r) => roleChip(r)));
  }

  function answerWords(answer) {
    return t(`wb.answer.${answer}`);
  }

  // -- a witch's play area -------------------------------------------------------------------
  function statusOf(view, seat, message) {
    const p = view.players[seat];
    if (view.phase === "over") return [null, ""];
    if (view.phase === "choose") return p.confirmed ? [t("wb.status.chosen"), "ok"] : [t("wb.status.choosing"), "busy"];
    if (message.to_move.includes(seat)) return [t(`wb.status.${view.phase}`), "busy"];
    return [null, ""];
  }

  function board(view, seat, message) {
    const p = view.players[seat];
    const mine = seat === mySeat();
    const [status, statusKind] = statusOf(view, seat, message);
    const handCount = p.hand_count === "hidden" ? null : p.hand_count;
    const chips = [
      view.leader === seat && view.phase !== "over" ? chip(t("wb.leader"), "lead") : null,
      chip(status, statusKind, `status-${seat}`),
      h("span", { class: "muted small vp-total", "data-testid": `vp-${seat}` }, t("wb.potion_vp", { count: p.potion_vp })),
    ];
    const vials = p.vials === "hidden"
      ? h("span", { class: "pile hidden-vials", title: t("wb.vials_hidden") }, vial(), h("span", { class: "pile-count" }, "?"))
      : tokenPile("vial", "vials", p.vials, resName("vials"), { testid: `vials-${seat}` });
    const body = [
      h(
        "div",
        { class: "resources", "aria-label": t("wb.resources") },
        DROPS.map((c) => tokenPile("drop", c, p.drops[c], resName(c), { testid: `drops-${seat}-${c}` })),
        tokenPile("coin", "gold", p.gold, resName("gold"), { testid: `gold-${seat}` }),
        vials,
      ),
      view.phase === "over" ? null : h(
        "div",
        { class: "hand-row" },
        h("span", { class: "zone-label" }, t("wb.hand")),
        handCount === null ? h("span", { class: "muted small" }, t("wb.hand_secret")) : handCount ? cardBacks(handCount, tn("wb.cards_in_hand", handCount)) : h("span", { class: "muted small" }, t("wb.hand_empty")),
        p.played.length ? h("span", { class: "played" }, h("span", { class: "zone-label" }, t("wb.played")), p.played.map((r) => roleChip(r, "played-chip"))) : null,
        Array.isArray(p.set_aside) && view.phase !== "choose" ? h("span", { class: "played set-aside" }, h("span", { class: "zone-label" }, t("wb.set_aside")), p.set_aside.map((r) => roleChip(r, "aside-chip"))) : null,
      ),
      phoneRow("potions", t("wb.potions"), p.potions.length ? p.potions.map((c) => potionCard(c, { extra: "mini" })) : h("span", { class: "muted small" }, t("wb.no_potions"))),
    ];
    const active = message.to_move.includes(seat) && view.phase !== "choose";
    return playerBoard(ctx, seat, { mine, active, chips, body, extra: "wb-board", collapsible: true });
  }

  // -- my hand and the move panel ------------------------------------------------------------
  function hand(view, me, legal, { inPanel = false } = {}) {
    if (!Array.isArray(me.hand) || view.phase === "choose" || view.phase === "over") return null;
    // When she leads, her hand is the move itself: it is drawn in the move panel, not twice.
    const leading = legal.some((a) => a.type === "lead");
    if (leading !== inPanel) return null;
    const leads = new Map(legal.filter((a) => a.type === "lead").map((a) => [a.role, a]));
    const cur = view.current;
    const cards = me.hand.map((id) => {
      const lead = leads.get(id);
      const called = cur && cur.role === id;
      const face = roleCard(id, { extra: `${lead ? "playable" : ""} ${called ? "called" : ""}`, testid: "hand-card" });
      if (!lead) return face;
      return h("button", { class: "card-button", type: "button", "data-action": "lead", "data-role": id, "data-key": `lead-${id}`, title: announce(id), disabled: moves.pending, onclick: () => moves.send(lead) }, face);
    });
    return handArea({ label: t("wb.your_hand"), heading: t("wb.your_hand"), cards, empty: t("wb.empty_hand"), sideways: true });
  }

  function chooseScreen(view, me, legal) {
    const kept = Array.isArray(me.hand) ? me.hand : [];
    const byRole = new Map();
    for (const a of legal) if (a.type === "keep" || a.type === "unkeep") byRole.set(a.role, a);
    const confirm = legal.find((a) => a.type === "confirm");
    const blocked = new Set((view.variant && view.variant.blocked) || []);
    const done = me.confirmed;
    const cards = ROLE_IDS.map((id) => {
      const isKept = kept.includes(id);
      const action = byRole.get(id);
      const face = roleCard(id, { extra: `${isKept ? "kept" : ""} ${blocked.has(id) ? "blocked" : ""}`, badge: isKept ? h("span", { class: "kept-badge" }, "✓ ", t("wb.kept")) : blocked.has(id) ? h("span", { class: "kept-badge blocked" }, t("wb.blocked")) : null });
      if (!action) return h("div", { class: "card-slot" }, face);
      return h(
        "button",
        { class: "card-button", type: "button", "data-action": action.type, "data-role": id, "data-key": `pick-${id}`, "aria-pressed": String(isKept), title: isKept ? t("wb.put_back", { role: roleName(id) }) : t("wb.keep_role", { role: roleName(id) }), disabled: moves.pending, onclick: () => moves.send(action) },
        face,
      );
    });
    const slots = [];
    for (let i = 0; i < 5; i += 1) slots.push(kept[i] ? roleChip(kept[i]) : h("span", { class: "role-chip empty" }, "?"));
    return h(
      "section",
      { class: "choose", "data-testid": "choose" },
      h("h3", {}, done ? t("wb.choose.done") : t("wb.choose.title", { set: view.set })),
      done ? null : h("p", { class: "small muted" }, t("wb.choose.help")),
      h(
        "div",
        { class: "choose-bar" },
        h("span", { class: "kept-count", "data-testid": "kept-count" }, t("wb.choose.count", { count: kept.length })),
        h("span", { class: "kept-slots" }, slots),
        confirm ? moves.button(t("wb.choose.confirm"), confirm, { cls: "btn primary", key: "confirm" }) : null,
      ),
      // Her five roles stay in sight while the others still choose.
      done ? yourChoice({ title: t("wb.your_choice"), items: kept.map((id) => roleCard(id, { texts: false, extra: "mini" })), note: t("wb.your_choice_note") }) : h("div", { class: "role-grid", ...scrollsOnPhone(t("wb.choose.title", { set: view.set })) }, cards),
    );
  }

  function optionParts(action) {
    // What one variant of an action pays and gets, drawn; the label says the same in words.
    const parts = [];
    const words = [];
    if (action.drop && action.type !== "give") {
      parts.push(h("span", { class: "opt" }, t("wb.opt.return"), " ", drop(action.drop)));
      words.push(`${t("wb.opt.return")} ${amount(1, action.drop)}`);
    }
    if (action.pay) {
      parts.push(h("span", { class: "opt" }, t("wb.opt.pay"), " ", costTokens(action.pay)));
      words.push(`${t("wb.opt.pay")} ${amounts(action.pay)}`);
    }
    if (action.drops) {
      parts.push(h("span", { class: "opt" }, t("wb.opt.take"), " ", tokens("drop", action.drops, DROPS, resName)));
      words.push(`${t("wb.opt.take")} ${amounts(action.drops)}`);
    }
    if ("extra" in action) {
      if (action.extra) {
        parts.push(h("span", { class: "opt" }, t("wb.opt.extra"), " ", drop(action.extra), " ➜ ", vial()));
        words.push(t("wb.opt.extra_words", { drop: amount(1, action.extra) }));
      } else {
        parts.push(h("span", { class: "opt muted" }, t("wb.opt.no_extra")));
        words.push(t("wb.opt.no_extra"));
      }
    }
    return { parts, words };
  }

  function optionsChooser(kind, options, title, help) {
    // Variants of the same card are grouped under it; a variant without a card stands alone.
    return moves.choose({
      title,
      help,
      actions: options,
      option: (a, i) => {
        const { parts, words } = optionParts(a);
        const c = a.card ? CARDS[a.card] : null;
        const label = [c ? `${t("wb.opt.card")} ${cardWords(a.card)}` : null, ...words].filter(Boolean).join(" · ") || t("wb.opt.plain");
        return {
          key: `${kind}-${i}`,
          label,
          group: c ? a.card : undefined,
          groupHead: c ? potionCard(c, { extra: "mini" }) : undefined,
          content: parts.length ? parts : c ? h("span", {}, t("wb.opt.brew_it"), " ", costTokens(c.cost)) : t("wb.opt.plain"),
        };
      },
      onCancel: table.chooser ? table.closeChooser : null,
      cancelLabel: t("wb.cancel"),
      overlay: Boolean(table.chooser), // opened by a click: over the answers, nothing moves
    });
  }

  function respondPanel(view, legal) {
    const cur = view.current;
    const out = [];
    const pass = legal.find((a) => a.type === "pass");
    if (pass) {
      out.push(h("p", {}, t("wb.prompt.pass", { role: roleName(cur.role) })));
      out.push(h("div", { class: "button-row" }, moves.button(t("wb.pass"), pass, { cls: "btn primary", key: "pass" })));
      return out;
    }
    const claim = legal.find((a) => a.type === "claim");
    const favors = legal.filter((a) => a.type === "favor");
    const decline = legal.find((a) => a.type === "decline_favor");
    const later = [];
    for (const seat of seatsAround(view.players_count, mySeat())) {
      if (seat === cur.leader) break;
      if (view.players[seat].hand_count !== 0) later.push(seat); // an empty hand passes by itself
    }
    out.push(h("p", {}, t("wb.prompt.respond", { role: roleName(cur.role), name: name(cur.claimant) })));
    out.push(h("p", { class: "small muted" }, later.length ? tn("wb.prompt.risk", later.length) : t("wb.prompt.last")));
    if (table.chooser && table.chooser.kind === "favor" && favors.length > 1) {
      out.push((optionsChooser("favor", favors, t("wb.choose_favor", { role: roleName(cur.role) }), favorText(cur.role))));
    }
    const favorButton = favors.length === 1
      ? moves.button("", favors[0], { cls: "btn big so-be-it", key: "favor", content: [h("strong", {}, t("wb.so_be_it")), h("span", { class: "small" }, favorSummary(cur.role, favors[0]))] })
      : favors.length > 1
        ? moves.control([h("strong", {}, t("wb.so_be_it")), h("span", { class: "small" }, favorText(cur.role))], { kind: "open-favor", key: "open-favor", cls: "btn big so-be-it", onClick: () => table.openChooser({ kind: "favor" }) })
        : null;
    out.push(
      h(
        "div",
        { class: "answer-buttons" },
        claim ? moves.button("", claim, { cls: "btn big primary claim-button", key: "claim", content: [h("strong", {}, announce(cur.role)), h("span", { class: "small" }, fullText(view, cur.role))] }) : null,
        favorButton,
        decline ? moves.button("", decline, { cls: "btn big ghost", key: "decline-favor", content: [h("strong", {}, t("wb.decline_favor")), h("span", { class: "small" }, favors.length ? t("wb.decline_favor_help") : t("wb.cannot_pay_favor"))] }) : null,
      ),
    );
    return out;
  }

  function fullText(view, role) {
    // The Warlock's full action is the spell on top of the book: say which.
    const text = t(`wb.role_full.${role}`);
    return role === "warlock" ? `${text} ${spellName(view.spell.top)}: ${t(`wb.spell_text.${view.spell.top}`)}` : text;
  }

  function favorSummary(role, action) {
    const { words } = optionParts(action);
    if (action.card) words.unshift(cardWords(action.card));
    return words.length ? words.join(" · ") : favorText(role);
  }

  function actPanel(view, legal) {
    const cur = view.current;
    const acts = legal.filter((a) => a.type === "act");
    const decline = legal.find((a) => a.type === "decline");
    const role = cur.role;
    const spell = role === "warlock" ? view.spell.top : null;
    const what = spell ? t(`wb.spell_text.${spell}`) : t(`wb.role_full.${role}`);
    const out = [h("p", {}, t("wb.prompt.act", { role: roleName(role) })), h("p", { class: "small" }, spell ? [icon("book"), ` ${spellName(spell)}: ${what}`] : what)];
    // Declining gives the full action up for good: asked once while it could still be done.
    const declining = decline ? moves.confirm(t("wb.decline_full"), decline, { words: { ask: t("wb.confirm.decline"), yes: t("wb.confirm.decline_yes"), no: t("wb.cancel") }, needed: acts.length > 0, cls: "btn ghost", key: "decline" }) : null;
    if (acts.length === 1 && Object.keys(acts[0]).length === 1) {
      out.push(h("div", { class: "button-row" }, moves.button(t("wb.do_it"), acts[0], { cls: "btn primary", key: "act" }), declining));
      return out;
    }
    if (acts.length) out.push((optionsChooser("act", acts, t("wb.choose_how"), null)));
    else out.push(h("p", { class: "small muted" }, t("wb.cannot_pay_full")));
    if (declining) out.push(h("div", { class: "button-row" }, declining));
    return out;
  }

  function tributePanel(view, legal) {
    const cur = view.current;
    return [
      h("p", {}, t("wb.prompt.give", { name: name(cur.claimant) })),
      h("div", { class: "button-row" }, legal.filter((a) => a.type === "give").map((a) => moves.button("", a, { key: `give-${a.drop}`, cls: "btn option", content: [drop(a.drop), " ", resName(a.drop)], title: t("wb.give_one", { drop: resName(a.drop) }) }))),
    ];
  }

  function shelfPanel(view, legal) {
    const cur = view.current;
    const buys = legal.filter((a) => a.type === "buy");
    const noBuy = legal.find((a) => a.type === "no_buy");
    const stack = cur.role === "cutpurse" ? "gold_shelf" : "ingredient_shelf";
    return [
      h("p", {}, t("wb.prompt.shelf", { stack: stackName(stack) })),
      buys.length ? (optionsChooser("buy", buys, t("wb.choose_buy"), null)) : null,
      noBuy ? h("div", { class: "button-row" }, moves.button(t("wb.no_buy"), noBuy, { cls: "btn ghost", key: "no-buy" })) : null,
    ];
  }

  function waitingPanel(message) {
    const view = message.view;
    const lines = [];
    if (mySeat() === null) lines.push(h("p", { class: "muted", "data-testid": "spectating" }, t("wb.spectating")));
    const names = message.to_move.map(name).join(", ");
    if (names) lines.push(h("p", {}, view.phase === "choose" ? t("wb.waiting_choose", { names }) : t("wb.waiting_for", { names })));
    return lines;
  }

  function movePanel(message, me) {
    const { legal, view } = message;
    let body;
    if (view.phase === "choose" && me) body = [chooseScreen(view, me, legal), legal.length ? null : waitingPanel(message)];
    else if (!legal.length) body = waitingPanel(message);
    else if (view.phase === "lead") body = [h("p", {}, t("wb.prompt.lead")), h("p", { class: "small muted" }, t("wb.prompt.lead_help")), hand(view, me, legal, { inPanel: true })];
    else if (view.phase === "respond") body = respondPanel(view, legal);
    else if (view.phase === "act") body = actPanel(view, legal);
    else if (view.phase === "tribute") body = tributePanel(view, legal);
    else if (view.phase === "shelf") body = shelfPanel(view, legal);
    else body = waitingPanel(message);
    return moveArea(legal, body);
  }

  function finalScreen(message) {
    const result = message.result;
    const seats = message.view.players.map((p) => p.seat);
    const details = result.details || {};
    return endScreen(ctx, result, seats, {
      words: {
        headline: winnerHeadline(result, mySeat(), name, { you: t("wb.end.you_win"), shared: (names) => t("wb.end.shared", { names }), wins: (names) => t("wb.end.wins", { names }) }),
        reason: `${t(`wb.reason.${result.reason}`)}${details.tie_break ? ` ${t("wb.end.tie_break")}` : ""}`,
        place: (n) => t("wb.end.place", { place: n }),
        rematch: t("wb.end.rematch"),
        lobby: t("room.back_to_lobby"),
      },
      line: (seat) => [
        h("span", {}, t("wb.end.score", { count: result.scores[seat] })),
        h(
          "span",
          { class: "small muted" },
          t("wb.end.details", {
            potions: (details.potion_vp || [])[seat] ?? 0,
            vials: (details.vials || [])[seat] ?? 0,
            leftovers: (details.leftovers || [])[seat] ?? 0,
          }),
        ),
      ],
    });
  }

  // -- the whole table -----------------------------------------------------------------------
  function draw(message, isNew) {
    if (!isNew) ui.fresh = new Set(); // a redraw (language, presence, a chooser): nothing new to animate
    const view = message.view;
    const seat = mySeat();
    const me = seat !== null && seat !== undefined ? view.players[seat] : null;
    const over = Boolean(message.result);
    return tableRoot(
      { game: "wb", message, pending: moves.pending, data: { set: view.set, round: view.round } },
      phaseLine(view),
      over ? finalScreen(message) : null,
      otherBoards(view.players_count, me ? seat : null, (s) => board(view, s, message)),
      h("div", { class: "middle" }, claimArea(view, message), potionStacks(view), spellBook(view)),
      over ? null : movePanel(message, me),
      me ? hand(view, me, message.legal) : null,
      me ? board(view, seat, message) : null,
    );
  }

  function remember(message, previous) {
    // Which answers are new (to pop them in), and the outcome of a round that just ended.
    ui.fresh = new Set();
    // The same round (rounds are counted over the whole match; a role may open two rounds in a
    // row across a set's end), so only its new answers pop in.
    const before = previous && previous.view.current && previous.view.round === message.view.round ? previous.view.current : null;
    const cur = message.view.current;
    if (cur) {
      const had = new Set(before ? before.answers.map((a) => `${a.seat}:${a.answer}`) : []);
      for (const a of cur.answers) if (!had.has(`${a.seat}:${a.answer}`)) ui.fresh.add(`${a.seat}:${a.answer}`);
      if (!before) ui.fresh.add(`${cur.leader}:lead`);
    }
    for (const e of message.events || []) {
      if (e.type === "role_led") ui.took = new Map();
      if (e.type === "favor_taken") ui.took.set(e.seat, favorWords(e));
    }
    const ended = (message.events || []).filter((e) => e.type === "round_ended");
    if (ended.length) {
      const e = ended[ended.length - 1];
      const outcome = (message.events || []).filter((x) => ["full_action", "full_action_declined", "shelf_bought", "shelf_declined"].includes(x.type) && x.role === e.role).map(describeEvent).filter(Boolean);
      ui.lastRound = { role: e.role, claimant: e.claimant, outcome: outcome.length ? outcome.join(" ") : t("wb.log.round_ended", { role: roleName(e.role), name: name(e.claimant) }) };
    }
    if (message.view.phase === "choose") ui.lastRound = null;
  }

  return table.renderer;

  // -- the table log in words ----------------------------------------------------------------
  function ledgerWords(e) {
    const parts = [];
    if (e.card) parts.push(t("wb.log.takes_card", { card: cardWords(e.card) }));
    if (e.paid && Object.keys(e.paid).length) parts.push(t("wb.log.pays", { what: amounts(e.paid) }));
    const gained = { ...(e.gained || {}) };
    if (Object.keys(gained).length) parts.push(t("wb.log.gains", { what: amounts(gained) }));
    return parts.length ? parts.join(", ") : t("wb.nothing");
  }

  function favorWords(e) {
    const spared = !e.card && !Object.keys(e.paid || {}).length && !Object.keys(e.gained || {}).length && (e.role === "cutpurse" || e.role === "begging_monk");
    return spared ? t("wb.spared") : ledgerWords(e);
  }

  function describeEvent(e) {
    switch (e.type) {
      case "match_started":
        return t("wb.log.match_started");
      case "set_started":
        return t(e.blocked && e.blocked.length ? "wb.log.set_started_blocked" : "wb.log.set_started", { set: e.set, name: name(e.leader), spell: spellName(e.spell), roles: (e.blocked || []).map(roleName).join(", ") });
      case "variant_shuffled":
        return t("wb.log.variant_shuffled");
      case "roles_chosen":
        return t("wb.log.roles_chosen", { name: name(e.seat) });
      case "hand_confirmed":
        return t("wb.log.hand_confirmed", { roles: e.roles.map(roleName).join(", ") });
      case "role_led":
        return t("wb.log.role_led", { round: e.round, name: name(e.seat), words: announce(e.role) });
      case "passed":
        return t(e.automatic ? "wb.log.passed_auto" : "wb.log.passed", { name: name(e.seat) });
      case "claimed":
        return t("wb.log.claimed", { name: name(e.seat), words: announce(e.role), previous: name(e.previous) });
      case "favor_taken":
        // The thieves' favor (read as "exempt") moves nothing: she is spared.
        return t("wb.log.favor_taken", { name: name(e.seat), what: favorWords(e) });
      case "favor_declined":
        return t("wb.log.favor_declined", { name: name(e.seat) });
      case "full_action_owed":
        return t("wb.log.full_action_owed", { name: name(e.seat), role: roleName(e.role) });
      case "full_action":
        return e.spell
          ? t("wb.log.spell_cast", { name: name(e.seat), spell: spellName(e.spell), what: ledgerWords(e) })
          : t("wb.log.full_action", { name: name(e.seat), role: roleName(e.role), what: ledgerWords(e) });
      case "full_action_declined":
        return t("wb.log.full_action_declined", { name: name(e.seat), role: roleName(e.role) });
      case "drop_given":
        return t("wb.log.drop_given", { name: name(e.seat), to: name(e.to), drop: amount(1, e.drop) });
      case "shelf_bought":
        return t("wb.log.shelf_bought", { name: name(e.seat), what: ledgerWords(e) });
      case "shelf_declined":
        return t("wb.log.shelf_declined", { name: name(e.seat) });
      case "round_ended":
        return t("wb.log.round_ended", { role: roleName(e.role), name: name(e.claimant) });
      case "lead_passed":
        return t("wb.log.lead_passed", { from: name(e.from), to: name(e.to) });
      case "set_ended":
        return t("wb.log.set_ended", { set: e.set, count: e.ravens });
      case "spell_book_turned":
        return t("wb.log.spell_book_turned", { spell: spellName(e.spell) });
      case "game_over":
        return tn("wb.log.game_over", e.winners.length, { names: e.winners.map(name).join(", ") });
      default:
        return null; // role_kept, role_unkept, lead_owed: the table shows them
    }
  }
}
