/* What the page scripts share: the CSRF token, fresh keys, localStorage that never throws,
 * the server's HTML answers (htmx's request header) and the offline copy kept by a
 * service worker. Every script of static/js imports these from here (ES modules).
 */

/** The page's CSRF token (Django's form field), or "" on a page without a form. */
export const csrfToken = () => document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";

/** 32 random hex digits: a pad's id, a send's key (the server takes 16 to 64 of [A-Za-z0-9_-]). */
export const newId = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};

/** localStorage as JSON: a full or refused storage never stops the page (the value is then
    not kept), and an unreadable one reads as ``fallback``. */
export const storage = {
  load(name, fallback) {
    try {
      return JSON.parse(localStorage.getItem(name)) ?? fallback;
    } catch {
      return fallback;
    }
  },
  save(name, value) {
    try {
      localStorage.setItem(name, JSON.stringify(value));
    } catch {
      // storage full or refused: keep going
    }
  },
  remove(name) {
    try {
      localStorage.removeItem(name);
    } catch {
      // as above
    }
  },
};

/** A request for a page's fragment, as htmx makes it: the server answers with the partial. */
export const fetchFragment = (url, init = {}) =>
  fetch(url, { credentials: "same-origin", ...init, headers: { "HX-Request": "true", ...init.headers } });

/** The server's HTML as a fragment of nodes, parsed without running or loading anything. */
export const parseHtml = (html) => {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
};

/** Register the service worker at ``url`` for ``scope`` and hand it the page (``page``) and
    every file it loaded before the worker controlled it: scripts, the modules they import
    (listed as modulepreload links), styles and icon. Resolves with the registration, or
    rejects (the page works online without it). */
export const keepOffline = async (url, scope, page) => {
  await navigator.serviceWorker.register(url, { scope });
  const registration = await navigator.serviceWorker.ready;
  const files = "script[src], link[rel=modulepreload], link[rel=stylesheet], link[rel=icon]";
  const assets = Array.from(document.querySelectorAll(files), (element) => element.src || element.href);
  registration.active.postMessage({ cache: [page, ...assets] });
  return registration;
};
