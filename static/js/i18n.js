// Translations: static/i18n/{en,vi,es}.json, picked from the browser, switchable, persisted.
// A key missing from the chosen language falls back to English and is recorded, so tests can
// prove every string a player sees exists in all three languages.

export const LANGUAGES = ["en", "vi", "es"];
const STORAGE_KEY = "coven:lang";

let lang = "en";
let dict = {};
let english = {};
const listeners = [];
const missing = new Set();

window.coven = Object.assign(window.coven || {}, {
  missingKeys: () => [...missing],
  language: () => lang,
});

function pickLanguage() {
  const url = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(url)) return url;
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

// Beside this module's folder (static/i18n/), under the same versioned prefix when the page
// loaded it by one (app/static_assets.py): the texts are then cached as long as the code.
const TEXTS = new URL("../i18n/", import.meta.url);

async function load(code) {
  const response = await fetch(new URL(`${code}.json`, TEXTS));
  if (!response.ok) throw new Error(`cannot load language ${code}`);
  return response.json();
}

export async function initI18n() {
  lang = pickLanguage();
  // English (every missing text falls back to it) and the chosen language, both at once.
  const chosen = lang === "en" ? null : load(lang);
  chosen?.catch(() => {}); // (awaited below: a failure there falls back to English)
  english = await load("en");
  try {
    dict = chosen ? await chosen : english;
  } catch {
    lang = "en";
    dict = english;
  }
  document.documentElement.lang = lang;
  const select = document.getElementById("lang-select");
  if (select) {
    select.value = lang;
    select.addEventListener("change", () => setLanguage(select.value));
  }
  translateStatic(document);
}

export async function setLanguage(code) {
  if (!LANGUAGES.includes(code)) return;
  dict = code === "en" ? english : await load(code);
  lang = code;
  localStorage.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
  translateStatic(document);
  for (const fn of listeners) fn(code);
}

export function onLanguageChange(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in english;
}

/** The text for ``key`` with ``{name}`` placeholders filled from ``params``. */
export function t(key, params = {}) {
  let text = dict[key];
  if (text === undefined) {
    missing.add(`${lang}:${key}`);
    text = english[key] ?? key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

const pluralRules = {};
/** The plural category of ``count`` in the current language (CLDR, via ``Intl.PluralRules``):
 * "one" / "other" in English and Spanish, always "other" in Vietnamese. */
export function pluralCategory(count) {
  pluralRules[lang] ??= new Intl.PluralRules(lang);
  return pluralRules[lang].select(Number(count));
}

/** Plural-aware: ``key.{category}`` for ``count`` in the current language, ``key.other`` when the
 * language has no text of its own for that category (Spanish "many" reads as "other"). */
export function tn(key, count, params = {}) {
  const exact = `${key}.${pluralCategory(count)}`;
  return t(exact in dict ? exact : `${key}.other`, { count, ...params });
}

export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
}
