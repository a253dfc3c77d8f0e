// Translations: static/i18n/{en,vi,es}.json, picked from the browser, switchable, persisted.
// A key missing from the chosen language falls back to English and is recorded, so tests can
// prove every string a player sees exists in all three languages.

export const LANGUAGES = ["en", "vi", "es"];
const STORAGE_KEY = "coven:lang";
// The same choice for the server (app/pages.py ``page_language``): a page's <html lang> is then
// the reader's language before this module runs.
const COOKIE = "coven-lang";

let lang = "en";
let dict = {};
let english = {};
const listeners = [];
const missing = new Set();

window.coven = Object.assign(window.coven || {}, {
  missingKeys: () => [...missing],
  language: () => lang,
});

/** The reader's choice, kept: every page of this browser opens in it from now on (a room, its
 * replay, the rules, whatever link led there). */
function remember(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* storage refused (a private window's quota): the cookie still carries it */
  }
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

// The language a page opens in: a `?lang=` link's (kept: it chose for the reader, as the picker
// does), else the one the reader chose before, else the first of the browser's languages that
// Coven speaks, else English. The links Coven makes for someone else (an invite, a replay to
// share) carry no `?lang=`: a friend opens them in her own language, not the sender's.
function pickLanguage() {
  const url = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(url)) {
    remember(url);
    return url;
  }
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) {
    if (!document.cookie.split("; ").includes(`${COOKIE}=${saved}`)) remember(saved);
    return saved;
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

// Beside this module's folder (static/i18n/), under the same versioned prefix when the page
// loaded it by one (app/static_assets.py): the texts are then cached as long as the code.
const TEXTS = new URL("../i18n/", import.meta.url);

async function load(code, tries = 3) {
  // A fetch that fails (a dropped connection, a busy server) is tried again before the page
  // falls back to English.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(new URL(`${code}.json`, TEXTS));
      if (!response.ok) throw new Error(`cannot load language ${code}: ${response.status}`);
      return await response.json();
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((done) => setTimeout(done, 250 * attempt));
    }
  }
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
  // The server wrote <html lang> before this ran; ``data-texts`` says the texts are here.
  document.documentElement.dataset.texts = lang;
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
  remember(code);
  document.documentElement.lang = code;
  document.documentElement.dataset.texts = code;
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
