// The service worker, served at /sw.js by companion/web/shell.py, which puts `const SHELL = {version, precache,
// offline}` above this file: the cache version is a hash of the static files, so any change to them makes a new
// worker that fetches them afresh and drops the old cache.
//
// Static files: cache first (they only change with a new version). Pages: network first, and when the app's server
// can't be reached, the offline page saying so, never a stale copy of a game (it would show an old score as if it
// were live). Nothing else is touched: POSTs, htmx requests and the API always go to the network as they are.
/* global SHELL */
"use strict";

const CACHE = "companion-" + SHELL.version;
const STATIC_PREFIX = "/static/";

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
        names.filter((name) => name.startsWith("companion-") && name !== CACHE).map((name) => caches.delete(name))
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

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (unreachable) {
    const cached = await caches.match(SHELL.offline);
    if (!cached) throw unreachable;
    // A fresh Response: the page's address stays the one asked for, and the status says this is not that page.
    return new Response(await cached.blob(), { status: 503, statusText: "Offline", headers: cached.headers });
  }
}
