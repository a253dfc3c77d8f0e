// A tiny DOM builder: h("button", {class: "btn", onclick}, "text", child…), and the page's toasts.

import { has, t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// At most this many toasts at once: a new one pushes out the oldest.
const MAX_TOASTS = 2;

/** A short message at the bottom of the page, gone after a few seconds or on its close button.
 * The same text again does not pile up: the toast already showing it is refreshed (its timer
 * restarts and a counter says how often it came). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return null;
  const message = String(text);
  const lifetime = kind === "error" ? 6000 : 3500;
  let item = [...box.children].find((node) => node.dataset.text === message && node.dataset.kind === kind);
  if (item) {
    const times = Number(item.dataset.times || "1") + 1;
    item.dataset.times = String(times);
    item.querySelector(".toast-times").textContent = `×${times}`;
    item.classList.remove("again");
    void item.offsetWidth; // restart the "again" pulse
    item.classList.add("again");
    box.append(item); // the latest message last
  } else {
    const close = has("ui.close") ? t("ui.close") : "Close";
    item = h(
      "div",
      { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", dataset: { text: message, kind, times: "1" }, "data-testid": "toast" },
      h("span", { class: "toast-text" }, message),
      h("span", { class: "toast-times", "aria-hidden": "true" }),
      h("button", { class: "toast-close", type: "button", "aria-label": close, title: close, onclick: () => dismiss(item) }, "×"),
    );
    box.append(item);
    while (box.children.length > MAX_TOASTS) dismiss(box.firstElementChild);
  }
  clearTimeout(timers.get(item));
  timers.set(item, setTimeout(() => dismiss(item), lifetime));
  return item;
}

const timers = new WeakMap();

function dismiss(item) {
  clearTimeout(timers.get(item));
  item.remove();
}

export async function copyText(input) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}
