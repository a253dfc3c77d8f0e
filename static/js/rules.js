// Rules at the table: each game's rules in static/rules/{game}.{lang}.md, rendered once by the
// server (app/rules_markdown.py, GET /rules/{game}.{lang}.html), plus the card lists its
// "::name" lines mark, drawn here from the game's catalog with the renderer's translated names
// and texts, so no card text is written twice.
// On a room page it adds a side panel opened by the top bar's Rules button; on /rules/{game}
// it fills the page.

import { h, clear } from "./dom.js";
import { initI18n, onLanguageChange, t, tn, translateStatic } from "./i18n.js";
import { overlayClosed, overlayOpened } from "./overlays.js";

export const GAMES = ["whirling-witchcraft", "witchs-brew", "seasons"];
const INGREDIENTS = ["heart", "mandrake", "mushroom", "spider", "toad"];
const ENERGIES = ["air", "water", "fire", "earth"];

const language = () => (window.coven && window.coven.language ? window.coven.language() : "en");

const catalogs = new Map();
function catalog(game) {
  if (!catalogs.has(game)) {
    catalogs.set(game, fetch(`/api/games/${game}/catalog`).then((r) => {
      if (!r.ok) throw new Error(`no catalog for ${game}`);
      return r.json();
    }));
  }
  return catalogs.get(game);
}

// -- card lists drawn from the catalog and the renderer's translations ---------------------------

function entry(name, ...lines) {
  return h("div", { class: "rules-entry", "data-testid": "rules-entry" }, h("h4", {}, name), lines.filter(Boolean).map((line) => h("p", {}, line)));
}

function cubes(counts) {
  return INGREDIENTS.filter((k) => counts[k]).map((k) => t("ww.count_of", { count: counts[k], name: t(`ww.ingredient.${k}`) })).join(" + ");
}

function choiceWords(choice) {
  return choice.length === INGREDIENTS.length ? t("rules.ww.any") : choice.map((k) => t(`ww.ingredient.${k}`)).join("/");
}

function sideWords(fixed, choices) {
  const parts = [];
  const fixedWords = cubes(fixed);
  if (fixedWords) parts.push(fixedWords);
  const same = new Map();
  for (const choice of choices) same.set(choice.join("/"), [choice, (same.get(choice.join("/")) || [choice, 0])[1] + 1]);
  for (const [choice, count] of same.values()) parts.push(`${count} ${choiceWords(choice)}`);
  return parts.length ? parts.join(" + ") : t("rules.ww.nothing");
}

function recipeWords(recipe) {
  const front = recipe.front;
  const arrow = recipe.reversible ? "⇄" : "→";
  return `${sideWords(front.in, front.in_choice)} ${arrow} ${sideWords(front.out, front.out_choice)}`;
}

async function personalities() {
  const data = await catalog("whirling-witchcraft");
  return Object.values(data.personalities).map((p) => {
    const lines = [t(`ww.power.${p.power}`)];
    if (p.recipe) lines.push(t("rules.ww.recipe", { recipe: recipeWords(p.recipe) }) + (p.recipe.single_use ? ` (${t("ww.single_use")})` : ""));
    const icons = Object.entries(p.arcana_on_flip || {}).map(([k, n]) => `${n} × ${t(`ww.arcana.${k}`)}`);
    if (icons.length) lines.push(`${t("ww.arcana_on_flip")} ${icons.join(", ")}`);
    lines.push(`${t("ww.starts_with")} ${cubes(p.start)}`);
    return entry(t(`ww.personality.${p.id}`), ...lines);
  });
}

async function roles() {
  const data = await catalog("witchs-brew");
  return Object.keys(data.roles).map((id) => {
    const buy = `wb.role_favor_buy.${id}`;
    const hasBuy = id === "cutpurse" || id === "begging_monk";
    return entry(
      t(`wb.role.${id}`),
      h("span", {}, h("strong", {}, t("wb.full_action")), " ", t(`wb.role_full.${id}`)),
      h("span", {}, h("strong", {}, t("wb.favor")), " ", t(`wb.role_favor.${id}`)),
      hasBuy ? h("span", { class: "muted" }, t("rules.wb.favor_option", { text: t(buy) })) : null,
    );
  });
}

async function spells() {
  const data = await catalog("witchs-brew");
  return Object.keys(data.spells).map((id) => entry(t(`wb.spell.${id}`), t(`wb.spell_text.${id}`)));
}

function costWords(card, cost) {
  if (card.choice_cost) return t("se.choice_cost");
  const parts = ENERGIES.filter((e) => cost.energy[e]).map((e) => tn(`se.amount.${e}`, cost.energy[e]));
  if (cost.crystals) parts.push(tn("se.crystal_count", cost.crystals));
  return parts.length ? parts.join(", ") : t("se.free");
}

function seasonCost(card) {
  const words = card.cost.map((cost) => costWords(card, cost));
  if (words.every((w) => w === words[0])) return words[0];
  return words.map((w, i) => t("rules.se.with_players", { count: i + 2, cost: w })).join(" · ");
}

async function seasonCards() {
  const data = await catalog("seasons");
  const cards = Object.values(data.cards).sort((a, b) => a.num - b.num);
  const block = (title, list) => [h("h4", { class: "rules-group" }, title), list.map((c) => entry(
    `${c.num}. ${t(`se.card.${c.num}`)}`,
    `${t(`se.kind.${c.kind}`)} · ${tn("se.pp", c.pp)} · ${t("se.cost")}: ${seasonCost(c)}`,
    t(`se.effect.${c.num}`),
    c.first_edition ? h("span", { class: "muted" }, t("rules.se.first_edition", {
      cost: seasonCost({ ...c, cost: c.first_edition.cost }),
      effect: t(`se.effect_first.${c.num}`),
    })) : null,
  ))];
  return [
    block(t("rules.se.cards_basic"), cards.filter((c) => c.num <= 30)),
    block(t("rules.se.cards_master"), cards.filter((c) => c.num > 30)),
  ];
}

const DIRECTIVES = {
  "ww-personalities": personalities,
  "wb-roles": roles,
  "wb-spells": spells,
  "se-cards": seasonCards,
};

// -- drawing a game's rules ------------------------------------------------------------------------

export async function renderRules(root, game, lang = language()) {
  if (!GAMES.includes(game)) throw new Error(`no rules for ${game}`);
  const response = await fetch(`/rules/${game}.${lang}.html`);
  if (!response.ok) throw new Error(`no rules for ${game} in ${lang}`);
  // The server's rendering: Markdown with raw HTML off, so the files' text is never markup.
  const rules = document.createElement("template");
  rules.innerHTML = await response.text();
  translateStatic(rules.content); // the title: the game's name in this language
  for (const list of rules.content.querySelectorAll("[data-cards]")) {
    const make = DIRECTIVES[list.dataset.cards];
    if (make) list.append(...[await make()].flat(Infinity));
  }
  clear(root);
  root.dataset.game = game;
  root.dataset.lang = lang;
  root.append(rules.content);
  root.dataset.ready = "1";
}

export function rulesUrl(game, lang = language()) {
  return `/rules/${game}?lang=${lang}`;
}

// -- the room: a side panel beside the table -------------------------------------------------------

function useStylesheet() {
  if (document.querySelector('link[data-rules-css]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/rules.css", "data-rules-css": "1" }));
}

async function roomPanel(button, code) {
  useStylesheet();
  let game = null;
  let panel = null;
  let body = null;
  let tab = null;
  const draw = async () => {
    body.dataset.ready = "";
    tab.href = rulesUrl(game);
    try {
      await renderRules(body, game);
    } catch {
      clear(body).append(h("p", { class: "warn" }, t("rules.unavailable")));
      body.dataset.ready = "1";
    }
  };
  // Just below the top bar, which wraps to two lines on a phone (the language picker stays
  // reachable). A CSSOM property, not a style attribute: the CSP allows it.
  const place = () => {
    const bar = document.querySelector(".topbar");
    if (panel && bar) panel.style.setProperty("--rules-top", `${Math.round(bar.getBoundingClientRect().bottom) + 4}px`);
  };
  window.addEventListener("resize", place);
  // `refocus` false: another overlay closed it (on a phone) and takes the focus itself.
  const close = ({ refocus = true } = {}) => {
    if (!panel || panel.hidden) return;
    panel.hidden = true;
    overlayClosed("rules");
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  };
  const open = async () => {
    if (!panel) {
      // (it scrolls: it takes the keyboard focus)
      body = h("div", { class: "rules-body", "data-testid": "rules-body", tabindex: "0", role: "region", "aria-labelledby": "rules-panel-title" });
      tab = h("a", { class: "btn", target: "_blank", rel: "noopener", "data-testid": "rules-new-tab", "data-i18n": "rules.new_tab" }, t("rules.new_tab"));
      panel = h("aside", { class: "rules-panel panel", id: "rules-panel", "data-testid": "rules-panel", role: "dialog", "aria-labelledby": "rules-panel-title" },
        h("div", { class: "rules-head" },
          h("h2", { id: "rules-panel-title", tabindex: "-1", "data-i18n": "rules.title" }, t("rules.title")),
          tab,
          h("button", { class: "btn", type: "button", "data-testid": "rules-close", "data-i18n": "rules.close", onclick: () => close() }, t("rules.close"))),
        body);
      document.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && !panel.hidden) close();
      });
      document.body.append(panel);
      onLanguageChange(() => {
        if (!panel.hidden) draw();
      });
    }
    panel.hidden = false;
    overlayOpened("rules", () => close({ refocus: false }));
    place();
    button.setAttribute("aria-expanded", "true");
    await draw();
    if (!panel.hidden) panel.querySelector("h2").focus();
  };
  button.addEventListener("click", async () => {
    if (panel && !panel.hidden) {
      close();
      return;
    }
    if (!game) {
      try {
        const room = await fetch(`/api/rooms/${code}`).then((r) => r.json());
        game = room.game;
      } catch {
        return;
      }
    }
    await open();
  });
  button.hidden = false;
}

// -- the page /rules/{game} ------------------------------------------------------------------------

async function rulesPage(root) {
  await initI18n();
  const game = root.dataset.game;
  const draw = async () => {
    document.title = `${t(`game.${game}.title`)} · ${t("rules.title")}`;
    await renderRules(root, game);
  };
  onLanguageChange(draw);
  await draw();
}

const page = document.getElementById("rules-page");
if (page) rulesPage(page);
const button = document.getElementById("rules-open");
const room = document.getElementById("room");
if (button && room) roomPanel(button, room.dataset.code);
