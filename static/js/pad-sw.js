/* The score pad's service worker (served as /pad/sw.js, so its scope is /pad/).
 *
 * Network first, the cache when the network fails: the pad's page and its scripts and
 * styles load offline after one visit, and a new version replaces the cached one as
 * soon as the phone is online again. Only GET requests of our own origin are kept.
 */
"use strict";

const CACHE = "clubscore-pad-v1";

self.addEventListener("install", () => { self.skipWaiting(); });

self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });

/* The page sends its own address and assets, fetched before this worker controlled it. */
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.cache) || [];
  event.waitUntil(caches.open(CACHE).then((cache) => {
    return Promise.all(urls.map((url) => {
      return fetch(url, {credentials: "same-origin"}).then((response) => {
        if (response.ok) { return cache.put(url, response); }
      }).catch(() => { /* offline already: keep what we have */ });
    }));
  }));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) { return; }
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => { cache.put(request, copy); });
    }
    return response;
  }).catch(() => {
    return caches.match(request, {ignoreSearch: request.mode === "navigate"}).then((cached) => {
      return cached || caches.match(new URL("./", self.location).href);
    }).then((cached) => {
      return cached || new Response("Offline, and this page was never opened here.", {status: 503});
    });
  }));
});
