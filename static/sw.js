// Coven's service worker (served at /sw.js, scope /): it shows the "your turn" pushes the
// server sends (app/notify/push.py) and opens the table when one is clicked. It caches nothing
// and handles no fetch: every page works the same without it.
//
// A push's data is JSON: {title, body, url, tag}. `tag` ("coven-<room>") keeps one
// notification per table on the device: a newer one replaces the last.

"use strict";

self.addEventListener("install", () => {
  self.skipWaiting(); // a new version takes over at once: it holds no state
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** Where a notification leads: a path of this site (never another site's address). */
function tableUrl(raw) {
  try {
    const url = new URL(String(raw || "/"), self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

function readPush(event) {
  if (!event.data) return null;
  try {
    const data = event.data.json();
    return data && typeof data === "object" ? data : null;
  } catch {
    return { title: event.data.text() };
  }
}

self.addEventListener("push", (event) => {
  const data = readPush(event);
  if (!data || !data.title) return;
  const url = tableUrl(data.url);
  event.waitUntil(
    self.registration.showNotification(String(data.title), {
      body: data.body ? String(data.body) : "",
      tag: data.tag ? String(data.tag) : undefined,
      renotify: Boolean(data.tag),
      data: { url },
    }),
  );
});

/** Focus a tab already on `url` (the same path, whatever its hash or query), else open one. */
async function openTable(url) {
  const wanted = new URL(url);
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = tabs.find((tab) => {
    try {
      const at = new URL(tab.url);
      return at.origin === wanted.origin && at.pathname === wanted.pathname;
    } catch {
      return false;
    }
  });
  if (same && "focus" in same) return same.focus();
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = tableUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(openTable(url));
});
