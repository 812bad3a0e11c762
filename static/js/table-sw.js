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

var CACHE = "clubscore-table-v1";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function kept(url) {
  var address = new URL(url, self.location.href);
  if (address.origin !== self.location.origin) { return false; }
  return address.pathname === new URL("./", self.location.href).pathname || address.pathname.indexOf("/static/") === 0;
}

/* The page sends its own address and assets, fetched before this worker controlled it;
   the answer tells it they are kept. */
self.addEventListener("message", function (event) {
  var urls = ((event.data && event.data.cache) || []).filter(kept);
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return fetch(url, {credentials: "same-origin"}).then(function (response) {
        if (response.ok) { return cache.put(url, response); }
      }).catch(function () { /* offline already: keep what we have */ });
    }));
  }).then(function () {
    if (event.source) { event.source.postMessage({kept: urls.length}); }
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !kept(request.url)) { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !request.headers.get("HX-Request")) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, {ignoreSearch: request.mode === "navigate", ignoreVary: true}).then(function (cached) {
      return cached || new Response("Offline, and this table's page was never opened on this phone.",
        {status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}});
    });
  }));
});
