// Pieces every game's table is built from: its root and the areas every table has (the other
// players' boards, the move panel, the hand), tokens (cubes, drops, coins), "any of these" slots,
// card frames, player panels, move buttons that send an action taken from `legal` (and ask once
// before one that cannot be undone), choosers, "your choice" while a seat waits, the seating
// order, the log's word lists and the end screen ranked by `result.placings`. A game's renderer
// (static/js/games/{id}.js) keeps only what is its own; these take already translated words,
// so this module owns no translation keys. What every renderer does around its drawing (the
// messages, redraws, the open chooser) is table_renderer.js.

import { h } from "./dom.js";
import { overlayClosed, overlayOpened } from "./overlays.js";

// -- stylesheets ---------------------------------------------------------------------------------
const linked = new Set();

/** Link a stylesheet once (a game's renderer brings its own CSS: `useStylesheet("brew.css")`). */
export function useStylesheet(name) {
  const href = `/static/css/${name}`;
  if (linked.has(href) || document.querySelector(`link[data-coven-css="${CSS.escape(name)}"]`)) return;
  linked.add(href);
  document.head.append(h("link", { rel: "stylesheet", href, "data-coven-css": name }));
}
useStylesheet("table.css");

// -- the table's frame ---------------------------------------------------------------------------
/**
 * The table's root: classes `{game} phase-{phase}`, then `extra`, then `spectator` for a viewer
 * without a seat; and what the browser tests read: `data-version`, `data-phase`, `data-pending`
 * ("1" while a move is on its way), `data-my-turn` ("1" while this seat has moves and the match
 * goes on). `data` adds the game's own (round, year…).
 */
export function tableRoot({ game, message, pending, extra = "", data = {} }, ...children) {
  const phase = message.view.phase;
  const spectator = message.seat === null || message.seat === undefined;
  return h(
    "div",
    {
      class: `${game} phase-${phase} ${extra ? `${extra} ` : ""}${spectator ? "spectator" : ""}`,
      dataset: { version: message.version, ...data, phase, pending: pending ? "1" : "0", myTurn: message.legal.length && !message.result ? "1" : "0" },
    },
    children,
  );
}

/** The other players' boards, in table order after the viewer `me` (a spectator: from seat 0);
 * `board(seat)` draws one. */
export function otherBoards(count, me, board) {
  const seats = seatsAround(count, me);
  return h("div", { class: `others count-${seats.length}` }, seats.map((seat) => board(seat)));
}

/** The panel of this seat's moves (`data-testid="moves"`, class `my-turn` while `legal` holds
 * any); what happens is read out by the table's live region (`liveRegion`). */
export function moveArea(legal, body) {
  return h("section", { class: `moves ${legal.length ? "my-turn" : ""}`, "data-testid": "moves" }, body);
}

/** The viewer's hand (`data-testid="hand"`, read out as `label`): `heading`, then her `cards`
 * (one row that scrolls sideways on a phone when `sideways`), or `empty` when she holds none. */
export function handArea({ label, heading, cards, empty, sideways = false }) {
  return h(
    "section",
    { class: "hand", "data-testid": "hand", "aria-label": label },
    h("h3", {}, heading),
    sideways ? phoneRow("hand-cards", label, cards.length ? cards : h("span", { class: "muted" }, empty)) : h("div", { class: "hand-cards" }, cards.length ? cards : h("span", { class: "muted" }, empty)),
  );
}

/** A row that grows a card at a time (`cls phone-row`), read out as `label`: it scrolls
 * sideways on a phone, where it also takes the keyboard focus (arrows scroll what is past the
 * edge into view). */
export function phoneRow(cls, label, children) {
  return h("div", { class: `${cls} phone-row`, ...scrollsOnPhone(label) }, children);
}

/** The attributes of a group that scrolls on a phone, read out as `label`: there it takes the
 * keyboard focus (a keyboard reaches what is past its edge). */
export function scrollsOnPhone(label) {
  const narrow = window.matchMedia(NARROW).matches;
  return { role: "group", "aria-label": label, tabindex: narrow ? "0" : null, "data-scroll-focus": narrow ? "1" : null };
}

// -- the live region -----------------------------------------------------------------------------
/**
 * The table's one live region (`data-testid="table-live"`): polite, visually hidden, beside the
 * table `root` (which every redraw empties). `say(version, lines)` announces a new message's
 * events in words (the log's lines); the last few stay, so each announcement changes its text.
 */
export function liveRegion(root) {
  const parent = root.parentElement;
  let region = parent ? parent.querySelector(":scope > [data-testid=table-live]") : null;
  if (!region) {
    region = h("div", { class: "sr-only table-live", role: "log", "aria-live": "polite", "aria-relevant": "additions text", "data-testid": "table-live" });
    root.after(region);
  }
  return {
    say(version, lines) {
      if (!lines.length) return;
      region.append(h("p", { "data-version": String(version) }, lines.join(" ")));
      while (region.childElementCount > 5) region.firstElementChild.remove();
    },
  };
}

// -- tokens --------------------------------------------------------------------------------------
/** One token: `shape` is its CSS class ("cube", "drop", "coin", "vial"), `kind` its colour class
 * (`c-{kind}`); `label` is read out and shown on hover. */
export function token(shape, kind, label, extra = "") {
  return h("span", { class: `${shape} c-${kind} ${extra}`.trim(), role: "img", "aria-label": label, title: label });
}

/** A token for each unit in `counts` ({kind: n}), in the order of `kinds`. */
export function tokens(shape, counts, kinds, labelOf, extra = "") {
  const out = [];
  for (const kind of kinds) for (let i = 0; i < ((counts && counts[kind]) || 0); i += 1) out.push(token(shape, kind, labelOf(kind), extra));
  return out;
}

/** A token with its count beside it ("● ×3"): a compact pile for large amounts. */
export function tokenPile(shape, kind, count, label, { extra = "", testid = null } = {}) {
  return h(
    "span",
    { class: `pile ${count ? "" : "empty"} ${extra}`.trim(), title: `${label}: ${count}`, "data-testid": testid, "data-count": String(count) },
    token(shape, kind, label),
    h("span", { class: "pile-count" }, `×${count}`),
  );
}

/** The sum of a {kind: n} dictionary over `kinds` (all keys when omitted). */
export function total(counts, kinds = null) {
  if (!counts) return 0;
  return (kinds || Object.keys(counts)).reduce((sum, k) => sum + (counts[k] || 0), 0);
}

/** "2 red, 1 white" from {kind: n}: `word(count, kind)` says one part, `nothing` when empty. */
export function countsInWords(counts, kinds, word, nothing) {
  const parts = kinds.filter((k) => counts && counts[k]).map((k) => word(counts[k], k));
  return parts.length ? parts.join(", ") : nothing;
}

// -- icons -------------------------------------------------------------------------------------
// Inline SVG, so no emoji font or image file is needed (a LAN table may have neither).
const ICONS = {
  potion: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M6 1h4v1.2H9.4v3.6l3.9 6.9A1.6 1.6 0 0 1 11.9 15H4.1a1.6 1.6 0 0 1-1.4-2.3l3.9-6.9V2.2H6z" fill="currentColor"/></svg>',
  raven: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M1 10c2.2-.6 3.6-4.8 7.4-4.8 1.6 0 2.6.7 3.3 1.6H15l-2.6 1.6c-.2 3-2.7 5.1-5.6 5.1H4.6l1.2-1.9C3.6 11.9 2.2 11.3 1 10z" fill="currentColor"/><circle cx="11" cy="6.9" r=".6" fill="#000"/></svg>',
  book: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M1.5 3.2C3.8 2 6 2.2 8 3.8c2-1.6 4.2-1.8 6.5-.6v10c-2.3-1.1-4.5-.9-6.5.7-2-1.6-4.2-1.8-6.5-.7z" fill="currentColor"/><path d="M8 3.8v10" stroke="#000" stroke-opacity=".35"/></svg>',
  pour: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M2 6h12l-1.5 7.5a1.5 1.5 0 0 1-1.5 1.2H5a1.5 1.5 0 0 1-1.5-1.2z" fill="currentColor"/><path d="M8 1v3.5M6.3 3l1.7 1.6L9.7 3" stroke="currentColor" fill="none"/></svg>',
  crown: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M1.5 5l3.3 2.8L8 2.5l3.2 5.3L14.5 5l-1.3 7.5H2.8z" fill="currentColor"/><rect x="2.8" y="13" width="10.4" height="1.6" rx=".5" fill="currentColor"/></svg>',
};

/** An inline icon (`icon-{kind}` for colouring); `label` is read out, null for decoration. */
export function icon(kind, label = null) {
  const attrs = label ? { role: "img", "aria-label": label, title: label } : { "aria-hidden": "true" };
  const node = h("span", { class: `icon icon-${kind}`, ...attrs });
  node.innerHTML = ICONS[kind] || "";
  return node;
}

// -- cards ---------------------------------------------------------------------------------------
/** A card: a frame with an optional head row, a name and a body. `extra` adds classes. */
export function card({ name, head = null, body = null, foot = null, extra = "", testid = null, data = {} }) {
  return h(
    "div",
    { class: `card ${extra}`.trim(), "data-testid": testid, dataset: data },
    head ? h("div", { class: "card-head" }, head) : null,
    name !== null && name !== undefined ? h("div", { class: "card-name" }, name) : null,
    body,
    foot,
  );
}

/** `count` face-down card backs, for a hand others may count but not read. */
export function cardBacks(count, label) {
  const backs = [];
  for (let i = 0; i < count; i += 1) backs.push(h("span", { class: "card-back", "aria-hidden": "true" }));
  return h("span", { class: "card-backs", role: "img", "aria-label": label, title: label }, backs);
}

/**
 * A slot that takes any one of several kinds (a cost or an ingredient "spider or toad"), readable
 * without hovering: a dashed pill holding a small token of each kind with "/" between them, or,
 * when every kind is allowed, a token of all colours and `anyLabel` written out. `count` > 1
 * writes "3×" before it (three such slots). `label` (the kinds in words) is read out.
 */
export function oneOf(shape, kinds, { label, kindLabel, all = false, anyLabel = "", count = 1 }) {
  const inside = [];
  if (all) inside.push(h("span", { class: `${shape} c-any`, "aria-hidden": "true" }), h("span", { class: "one-of-word" }, anyLabel));
  else kinds.forEach((kind, i) => {
    if (i) inside.push(h("span", { class: "one-of-or", "aria-hidden": "true" }, "/"));
    inside.push(h("span", { class: `${shape} c-${kind}`, "aria-hidden": "true", title: kindLabel ? kindLabel(kind) : null }));
  });
  const text = count > 1 ? `${count} × ${label}` : label;
  return h(
    "span",
    { class: `one-of ${all ? "all" : ""}`.trim(), role: "img", "aria-label": text, title: text, "data-kinds": kinds.join(" ") },
    count > 1 ? h("span", { class: "one-of-count", "aria-hidden": "true" }, `${count}×`) : null,
    inside,
  );
}

/**
 * What this seat has chosen and now waits on (a hidden pick until the reveal, the cards kept, a
 * production sheet), so her choice stays in sight: `title` ("Your choice"), the chosen cards
 * (nodes) and an optional `note`. Feed it only from the seat's own view.
 */
export function yourChoice({ title, items, note = null, testid = "your-choice" }) {
  return h(
    "section",
    { class: "your-choice", "data-testid": testid, "aria-label": title },
    h("h4", {}, title),
    h("div", { class: "your-choice-items" }, items),
    note ? h("p", { class: "small muted" }, note) : null,
  );
}

// -- moves ---------------------------------------------------------------------------------------
/**
 * The move sender of one table: `send(action)` marks the table pending (`data-pending="1"` on
 * the element `rootSelector` finds), disables every `[data-action]` control and calls
 * `ctx.act(action)`; if the socket is down it redraws at once. `reset()` on each new message.
 * `before()` runs just before a move is sent (to close a chooser, say).
 */
export function createMoves(ctx, rootSelector, redraw, { before = null } = {}) {
  const moves = {
    pending: false,
    send(action) {
      if (moves.pending) return;
      moves.pending = true;
      moves.asking = null;
      // Disabling the control that was used drops the focus: keepFocus brings it back.
      const active = document.activeElement;
      sentFrom = active && ctx.root.contains(active) && active.dataset.key ? active.dataset.key : null;
      if (before) before();
      const table = ctx.root.querySelector(rootSelector);
      if (table) table.dataset.pending = "1";
      for (const control of ctx.root.querySelectorAll("[data-action]")) control.disabled = true;
      if (!ctx.act(action)) {
        moves.pending = false;
        redraw();
      }
    },
    reset() {
      moves.pending = false;
    },
    /** A button that sends `action` (an object from `legal`); `kind` is its `data-action`. */
    button(label, action, { kind = action.type, cls = "btn", key = null, content = null, title = null, testid = null } = {}) {
      return h(
        "button",
        { class: cls, type: "button", "data-action": kind, "data-key": key, "data-testid": testid, title, "aria-label": title, disabled: moves.pending, onclick: () => moves.send(action) },
        content || label,
      );
    },
    /**
     * A chooser (see `chooser`) whose every option is a legal action: `option(action, i)` says
     * one ({label, content, key, group, groupHead}); a click sends that action.
     */
    choose({ title, help = null, actions, option, onCancel = null, cancelLabel = "", overlay = false }) {
      return chooser({
        title,
        help,
        onCancel,
        cancelLabel,
        overlay,
        disabled: moves.pending,
        options: actions.map((action, i) => ({ kind: action.type, ...option(action, i), onClick: () => moves.send(action) })),
      });
    },
    /** A button that changes only this page (opens a chooser, asks first): it carries
     * `data-action` = `kind` as a move's button does, and waits while a move is pending. */
    control(content, { kind, key = null, cls = "btn", onClick }) {
      return h("button", { class: cls, type: "button", "data-action": kind, "data-key": key, disabled: moves.pending, onclick: onClick }, content);
    },
    asking: null, // the `key` of the confirm button whose question is open
    /**
     * A button for a move that cannot be taken back ("done", "end turn", "decline"): the first
     * click opens a small question over the page (nothing around it moves); its yes button sends
     * `action`, its no button or Escape closes it and sends nothing. `needed` false (nothing
     * would be lost, e.g. it is the only move left, or the engine offers an undo for it) sends
     * at once. `words`: {ask, yes, no}. The question stays open across redraws until answered.
     * Both the button and the yes carry `data-action` = `kind`; the yes comes first in the page.
     */
    confirm(label, action, { words, needed = true, kind = action.type, cls = "btn", key, testid = null }) {
      if (!needed) return moves.button(label, action, { kind, cls, key, testid });
      const open = moves.asking === key;
      const close = () => {
        moves.asking = null;
        overlayClosed("confirm");
        redraw();
        const again = ctx.root.querySelector(`[data-key="${CSS.escape(key)}"]`);
        if (again) again.focus();
      };
      // One overlay at a time on a phone (overlays.js): an open question closes the chat drawer
      // and the rules sheet and comes on top; opening either of them closes the question.
      if (open) overlayOpened("confirm", () => { if (moves.asking === key) { moves.asking = null; redraw(); } });
      const question = open
        ? h(
          "div",
          { class: "confirm-pop", role: "alertdialog", "aria-label": words.ask, "data-testid": "confirm", onkeydown: (event) => { if (event.key === "Escape") close(); } },
          h("p", {}, words.ask),
          h(
            "div",
            { class: "button-row" },
            h("button", { class: "btn primary", type: "button", "data-action": kind, "data-key": `${key}-yes`, "data-role": "confirm-yes", disabled: moves.pending, onclick: () => moves.send(action) }, words.yes),
            h("button", { class: "btn ghost", type: "button", "data-key": `${key}-no`, "data-role": "cancel", onclick: close }, words.no),
          ),
        )
        : null;
      if (question) queueMicrotask(() => keepOnScreen(question));
      return h(
        "span",
        { class: `confirm-wrap ${open ? "open" : ""}`.trim() },
        question,
        h(
          "button",
          {
            class: cls, type: "button", "data-action": kind, "data-key": key, "data-testid": testid, "aria-haspopup": "dialog", "aria-expanded": String(open), disabled: moves.pending,
            onclick: () => {
              if (open) return close();
              moves.asking = key;
              redraw();
              // The focus goes to "no": a second Enter or a double click does not answer yes.
              const no = ctx.root.querySelector(`[data-key="${CSS.escape(`${key}-no`)}"]`);
              if (no) no.focus();
            },
          },
          label,
        ),
      );
    },
  };
  return moves;
}

/** Shift a floating element sideways so it stays inside the window (it is placed by CSS). */
function keepOnScreen(node) {
  if (!node.isConnected) return;
  const rect = node.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  let shift = 0;
  if (rect.right > width - 8) shift = width - 8 - rect.right;
  if (rect.left + shift < 8) shift = 8 - rect.left;
  if (shift) node.style.transform = `translateX(${Math.round(shift)}px)`;
}

/**
 * A chooser: a titled list of options, each a button. `options` are `{content, label, onClick,
 * kind, key, group, groupHead}`; neighbours with the same `group` key are shown together under
 * the first one's `groupHead` (a node or text).
 * Escape or the cancel button calls `onCancel` (omit it for a chooser that cannot be closed).
 * `overlay`: it opens over what follows it instead of pushing it down (a chooser that opens on
 * a click must not move the page).
 */
export function chooser({ title, help = null, options, onCancel = null, cancelLabel = "", disabled = false, testid = "chooser", overlay = false }) {
  const groups = [];
  for (const option of options) {
    const last = groups[groups.length - 1];
    // (options of no group run together in one list: one scrolling list, not a box each)
    if (last && last.group === option.group) last.options.push(option);
    else groups.push({ group: option.group, head: option.groupHead, options: [option] });
  }
  const button = (o) =>
    h("li", {}, h("button", { class: `btn option variant ${o.cls || ""}`, type: "button", "data-action": o.kind, "data-key": o.key, "aria-label": o.label, title: o.label, disabled, onclick: o.onClick }, o.content || o.label));
  const box = h(
    "div",
    { class: "chooser", role: "dialog", "aria-label": title, "data-testid": testid, onkeydown: onCancel ? (event) => { if (event.key === "Escape") onCancel(); } : null },
    h("h4", {}, title),
    help ? h("p", { class: "small muted" }, help) : null,
    groups.map((g) =>
      h(
        "div",
        { class: "chooser-group" },
        g.head !== undefined && g.head !== null ? h("div", { class: "chooser-group-head" }, g.head) : null,
        h("ul", { class: "variants" }, g.options.map(button)),
      ),
    ),
    onCancel ? h("button", { class: "btn ghost", type: "button", "data-role": "cancel", onclick: onCancel }, cancelLabel) : null,
  );
  return overlay ? h("div", { class: "chooser-anchor" }, box) : box;
}

// -- players -------------------------------------------------------------------------------------
/** The seats in table order, starting after `me` (a spectator: from seat 0); `me` left out. */
export function seatsAround(count, me) {
  const out = [];
  for (let i = 1; i <= count; i += 1) {
    const seat = me === null || me === undefined ? i - 1 : (me + i) % count;
    if (seat !== me) out.push(seat);
  }
  return out;
}

/** A presence dot for a seat: bot, connected or away (from `ctx.seatInfo`). */
export function presenceDot(ctx, seat) {
  const info = ctx.seatInfo(seat);
  const state = info && info.bot ? "bot" : info && info.connected ? "on" : "off";
  return h("span", { class: `dot ${state}`, "aria-hidden": "true" });
}

/** A status chip: `kind` is "busy", "ok" or "" (neutral). */
export function chip(text, kind = "", testid = null) {
  return text ? h("span", { class: `chip ${kind}`.trim(), "data-testid": testid }, text) : null;
}

/**
 * A player's board: a header (presence dot, name, chips) and the body. `mine` marks the
 * viewer's own board (`data-testid="my-board"`, others `board-{seat}`); `active` the seat that
 * owes a move now. `collapsible` (for another player's board) makes it an `opponentPanel`: the
 * header is its summary, the body its detail, and `glance` nodes join the header while it is
 * collapsed (a compact count of what the body shows in full). The page adds what every game's
 * boards show alike after the game's chips (`ctx.boardChips(seat)`, where the page has it: the
 * seat's turn clock, "away" or "bot playing", the host's hand-over).
 */
export function playerBoard(ctx, seat, { mine = false, active = false, chips = [], body = [], extra = "", collapsible = false, glance = [] } = {}) {
  const attrs = { class: `board ${mine ? "mine" : ""} ${active ? "active" : ""} ${extra}`.trim(), "data-seat": seat, "data-testid": mine ? "my-board" : `board-${seat}` };
  const name = h("strong", { class: "board-name", "data-testid": mine ? "my-seat-name" : null }, ctx.seatName(seat));
  const status = ctx.boardChips ? ctx.boardChips(seat) : [];
  if (collapsible && !mine) {
    // A seated player's opponents start as one summary line each (her own board, hand and moves
    // stay in view on a laptop too); a spectator, who has no board of her own, sees them open.
    const watching = !ctx.mySeat || ctx.mySeat() === null || ctx.mySeat() === undefined;
    return opponentPanel([chips, status, h("span", { class: "glance" }, glance)], body, { key: `board-${seat}`, label: [presenceDot(ctx, seat), name], attrs, headClass: "board-head", open: watching && !window.matchMedia(NARROW).matches });
  }
  return h("section", attrs, h("header", { class: "board-head" }, presenceDot(ctx, seat), name, chips, status), body);
}

// -- another player's area: a compact summary that opens on a tap --------------------------------
// Collapsed by default (unless the caller says `open`: a spectator's boards on a wide screen);
// what the player chose for each panel (by key) holds across redraws and new messages.
const NARROW = "(max-width: 560px)";
const chosenOpen = new Map();
let panelIds = 0;

/**
 * A collapsible panel: a header with a toggle button (`label` nodes, aria-expanded) followed by
 * `summary` nodes, always shown; `detail` nodes below it while open. A tap anywhere on the header
 * outside its other controls toggles it too. `attrs` go on the panel (a <section>), which carries
 * the class `collapsed` and `data-open` for its state; `open`: its state until the player chooses.
 */
export function opponentPanel(summary, detail, { key, label, attrs = {}, headClass = "", open: byDefault = false }) {
  const id = `panel-${(panelIds += 1)}`;
  const open = chosenOpen.has(key) ? chosenOpen.get(key) : byDefault;
  const toggle = h("button", { class: "panel-toggle", type: "button", "aria-expanded": String(open), "aria-controls": id, "data-testid": `toggle-${key}`, "data-key": `toggle-${key}` }, h("span", { class: "chevron", "aria-hidden": "true" }), label);
  const body = h("div", { class: "panel-detail", id, hidden: !open }, detail);
  const panel = h("section", { ...attrs, class: `${attrs.class || ""} collapsible ${open ? "" : "collapsed"}`.trim(), "data-open": open ? "1" : "0" });
  const head = h("header", { class: `${headClass} panel-head`.trim() }, toggle, summary);
  function set(next) {
    chosenOpen.set(key, next);
    toggle.setAttribute("aria-expanded", String(next));
    body.hidden = !next;
    panel.classList.toggle("collapsed", !next);
    panel.dataset.open = next ? "1" : "0";
  }
  head.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const other = target && target.closest("button, a, input, select, label, [data-detail], [tabindex]");
    if (other && other !== toggle) return;
    set(panel.dataset.open !== "1");
  });
  panel.append(head, body);
  return panel;
}

let sentFrom = null; // the data-key of the control that sent the last move

/** Keep keyboard focus on the control with the same `data-key` across a redraw (also on the
 * one that sent a move, if the focus has not gone anywhere since). */
export function keepFocus(root, redraw) {
  const active = document.activeElement;
  const lost = !active || active === document.body;
  const key = active && root.contains(active) ? active.dataset.key : lost ? sentFrom : null;
  redraw();
  if (!key) return;
  const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again) again.focus();
  // While the move is pending its control is disabled and cannot take the focus: try again on
  // the next redraw, unless the control is gone.
  if (key === sentFrom && (!again || document.activeElement === again)) sentFrom = null;
}

// -- the end of the match ------------------------------------------------------------------------
/** The end screen's headline: `shared(names)` when several seats won, `you` when the viewer
 * (`me`) won alone, else `wins(names)`; `names` are the winners' names (`seatName`). */
export function winnerHeadline(result, me, seatName, { you, shared, wins }) {
  const names = result.winners.map((seat) => seatName(seat)).join(", ");
  if (result.winners.length > 1) return shared(names);
  return me !== null && result.winners.includes(me) ? you : wins(names);
}

/** Seats ordered by `result.placings` (1 first; ties keep seat order), scores for older results. */
export function ranking(result, seats) {
  const place = (seat) => (result.placings && result.placings.length ? result.placings[seat] : null);
  if (seats.every((s) => place(s) !== null && place(s) !== undefined)) return [...seats].sort((a, b) => place(a) - place(b) || a - b);
  return [...seats].sort((a, b) => (result.scores[b] || 0) - (result.scores[a] || 0) || a - b);
}

/**
 * The end screen (`data-testid="game-over"`): a headline, the reason, every seat by place with
 * `line(seat)` (score and details, as nodes), a rematch button and the way back to the lobby.
 * `words`: {headline, reason, place(n) (optional), rematch, lobby}.
 */
export function endScreen(ctx, result, seats, { words, line }) {
  // The room page brings its own rematch (`ctx.rematchControls(label)` → {button, choice}: who
  // may press, the host's choice, "waiting for the host"); elsewhere one button, and none for a
  // spectator, who has no seat to bring to a new table.
  const rematch = ctx.rematchControls
    ? ctx.rematchControls(words.rematch)
    : {
        button: ctx.mySeat && ctx.mySeat() === null
          ? null
          : h("button", { class: "btn primary", type: "button", "data-testid": "rematch", onclick: (event) => { event.currentTarget.disabled = true; ctx.rematch(); } }, words.rematch),
        choice: null,
      };
  const order = ranking(result, seats);
  const placeOf = (seat) => (result.placings && result.placings.length ? result.placings[seat] : order.indexOf(seat) + 1);
  return h(
    "section",
    { class: "end-screen", "data-testid": "game-over", role: "status" },
    h("div", { class: "trophy", "aria-hidden": "true" }, "☾✦"),
    h("h2", { "data-testid": "winner" }, words.headline),
    words.reason ? h("p", { "data-testid": "win-reason" }, words.reason) : null,
    h(
      "ol",
      { class: "scores", "data-testid": "ranking" },
      order.map((seat) =>
        h(
          "li",
          { class: result.winners.includes(seat) ? "winner" : "", "data-seat": seat, "data-place": placeOf(seat) },
          words.place ? h("span", { class: "place" }, words.place(placeOf(seat))) : null,
          h("strong", {}, ctx.seatName(seat)),
          line(seat),
        ),
      ),
    ),
    h("div", { class: "button-row" }, rematch.button, h("a", { class: "btn", href: "/" }, words.lobby)),
    rematch.choice,
  );
}

// -- the full text of a card on hover or tap -----------------------------------------------------
/**
 * One floating panel for the full text of what is under the pointer: hovering or focusing an
 * element of `root` that has `data-detail` shows `describe(element)` (nodes, or null for none)
 * beside it; a tap or click on it (not on a control inside it) pins the panel until its close
 * button or Escape. The panel lives outside `root`, so a redraw keeps it: call `refresh()` after
 * each redraw (a hover panel whose element is gone closes). It never takes clicks while hovering.
 */
export function attachDetail(root, describe, closeLabel) {
  const body = h("div", { class: "detail-body" });
  const panel = h("aside", { class: "detail-panel", hidden: true, "aria-live": "polite", "data-testid": "card-detail" });
  const close = h("button", { class: "btn small ghost detail-close", type: "button", "aria-label": closeLabel, title: closeLabel, onclick: () => hide() }, "×");
  panel.append(close, body);
  document.body.append(panel);
  let shownFor = null;
  let pinned = false;

  // Beside the element (right, else left) so the row it sits in stays readable; on a narrow
  // screen below it, else above.
  function place(el) {
    const rect = el.getBoundingClientRect();
    const screen = document.documentElement.clientWidth;
    const width = Math.min(300, screen - 16);
    panel.style.width = `${width}px`;
    const height = panel.offsetHeight;
    const top = Math.max(8, Math.min(rect.top, window.innerHeight - height - 8));
    if (rect.right + 8 + width <= screen - 8) {
      panel.style.left = `${rect.right + 8}px`;
      panel.style.top = `${top}px`;
    } else if (rect.left - 8 - width >= 8) {
      panel.style.left = `${rect.left - 8 - width}px`;
      panel.style.top = `${top}px`;
    } else {
      panel.style.left = `${Math.max(8, Math.min(rect.left, screen - width - 8))}px`;
      const below = rect.bottom + 6;
      panel.style.top = `${below + height < window.innerHeight ? below : Math.max(8, rect.top - height - 6)}px`;
    }
  }
  function show(el, pin) {
    const content = describe(el);
    if (!content) return;
    body.replaceChildren(...[content].flat().filter(Boolean));
    shownFor = el;
    pinned = pin;
    panel.classList.toggle("pinned", pin);
    panel.hidden = false;
    place(el);
  }
  function hide() {
    panel.hidden = true;
    pinned = false;
    shownFor = null;
  }
  const target = (event) => {
    const el = event.target instanceof Element ? event.target.closest("[data-detail]") : null;
    return el && root.contains(el) ? el : null;
  };
  root.addEventListener("mouseover", (event) => { const el = target(event); if (el && !pinned && el !== shownFor) show(el, false); });
  root.addEventListener("mouseout", (event) => { const el = target(event); if (el && !pinned && !el.contains(event.relatedTarget)) hide(); });
  root.addEventListener("focusin", (event) => { const el = target(event); if (el && !pinned) show(el, false); });
  root.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("button, a, input, select, summary")) return;
    const el = target(event);
    if (el) show(el, true);
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !panel.hidden) hide(); });
  return {
    hide,
    refresh() {
      if (!panel.hidden && !pinned && shownFor && !shownFor.isConnected) hide();
    },
  };
}
