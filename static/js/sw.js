// The service worker, served at /sw.js by companion/web/shell.py, which puts `const SHELL = {version, precache,
// offline}` above this file: the cache version is a hash of the static files, so any change to them makes a new
// worker that fetches them afresh and drops the old cache.
//
// Static files: cache first (they only change with a new version). Pages: network first, and when the app's server
// can't be reached, the offline page saying so. A play's own page (GET /plays/<id>) is the one exception: its last
// copy is kept, per play, and shown when the server can't be reached, marked as a kept copy (data-kept-copy on
// <body>), so the tracker says "this is the page as last seen", never passes an old score off as live, and its taps
// kept on the device (static/js/queue.js) come back with it after a reload offline. Nothing else is touched: POSTs,
// htmx requests and the API always go to the network as they are.
/* global SHELL */
"use strict";

const CACHE = "companion-" + SHELL.version;
const STATIC_PREFIX = "/static/";
// Kept across versions (a new worker must not lose the page a device reloads offline): no "companion-<version>".
const PAGES = "companion-pages";
const PLAY_PAGE = /^\/plays\/\d+$/;
// The last plays opened on this device; older copies are let go.
const PAGES_KEPT = 12;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      // "reload": past the browser's HTTP cache, so the new version never stores an old file.
      .then((cache) => cache.addAll(SHELL.precache.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("companion-") && name !== CACHE && name !== PAGES)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  // A tap, a form, an htmx fragment: the server's answer or htmx's own "can't be reached" message, never a copy.
  if (request.method !== "GET" || request.headers.has("HX-Request")) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && PLAY_PAGE.test(url.pathname)) {
    event.respondWith(playPage(event));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function playPage(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    // A redirect (to the access page) is not the play's page.
    if (response.ok && !response.redirected) event.waitUntil(keepPage(request, response.clone()));
    return response;
  } catch (unreachable) {
    const kept = await (await caches.open(PAGES)).match(request, { ignoreSearch: true });
    if (!kept) return offlinePage(unreachable);
    return keptCopy(kept);
  }
}

async function keepPage(request, response) {
  const cache = await caches.open(PAGES);
  await cache.put(request, response);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map((key) => cache.delete(key)));
}

// The kept page, marked on its <body> so its scripts know it is not the server's answer of now.
async function keptCopy(kept) {
  const html = (await kept.text()).replace("<body", `<body data-kept-copy="${kept.headers.get("Date") || "true"}"`);
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, statusText: "Kept copy", headers });
}

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (unreachable) {
    return offlinePage(unreachable);
  }
}

async function offlinePage(unreachable) {
  const cached = await caches.match(SHELL.offline);
  if (!cached) throw unreachable;
  // A fresh Response: the page's address stays the one asked for, and the status says this is not that page.
  return new Response(await cached.blob(), { status: 503, statusText: "Offline", headers: cached.headers });
}
