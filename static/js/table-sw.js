/* A table's phone's service worker (served as <table link>/sw.js, so its scope is that
 * table's pages only: /t/<token>/ or /tt/<token>/).
 *
 * As the score pad's (pad-sw.js): network first, the cache when the network fails, so a
 * reload without network shows the table's page and its scripts and styles as last seen;
 * table.js then lays its outbox (kept in localStorage, untouched here) over the page.
 * Only the page itself and our static files are kept: sends, confirmations and previews
 * go to the network or fail, as table.js expects (it keeps them in its outbox).
 */
"use strict";

const CACHE = "clubscore-table-v1";

self.addEventListener("install", () => { self.skipWaiting(); });

self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });

const kept = (url) => {
  const address = new URL(url, self.location.href);
  if (address.origin !== self.location.origin) { return false; }
  return address.pathname === new URL("./", self.location.href).pathname || address.pathname.startsWith("/static/");
};

/* The page sends its own address and assets, fetched before this worker controlled it;
   the answer tells it they are kept. */
self.addEventListener("message", (event) => {
  const urls = ((event.data && event.data.cache) || []).filter(kept);
  event.waitUntil(caches.open(CACHE).then((cache) => {
    return Promise.all(urls.map((url) => {
      return fetch(url, {credentials: "same-origin"}).then((response) => {
        if (response.ok) { return cache.put(url, response); }
      }).catch(() => { /* offline already: keep what we have */ });
    }));
  }).then(() => {
    if (event.source) { event.source.postMessage({kept: urls.length}); }
  }));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !kept(request.url)) { return; }
  event.respondWith(fetch(request).then((response) => {
    if (response.ok && !request.headers.get("HX-Request")) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => { cache.put(request, copy); });
    }
    return response;
  }).catch(() => {
    return caches.match(request, {ignoreSearch: request.mode === "navigate", ignoreVary: true}).then((cached) => {
      return cached || new Response("Offline, and this table's page was never opened on this phone.",
        {status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}});
    });
  }));
});
