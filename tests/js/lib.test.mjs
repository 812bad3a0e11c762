// static/js/lib.js under `node --test`: the parts that need no page (a stand-in
// localStorage and document where they read one).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { csrfToken, newId, storage } from "../../static/js/lib.js";

afterEach(() => {
  delete globalThis.localStorage;
  delete globalThis.document;
});

const memoryStorage = () => {
  const kept = new Map();
  return { getItem: (name) => kept.get(name) ?? null, setItem: (name, value) => kept.set(name, String(value)),
           removeItem: (name) => kept.delete(name), kept };
};

test("a new id is 32 hex digits, a key the table services and the pad's form both take", () => {
  const ids = new Set(Array.from({ length: 200 }, newId));
  assert.equal(ids.size, 200);
  for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
});

test("storage keeps JSON and gives it back", () => {
  globalThis.localStorage = memoryStorage();
  storage.save("outbox", [{ kind: "send", key: "k" }]);
  assert.deepEqual(storage.load("outbox", []), [{ kind: "send", key: "k" }]);
  storage.remove("outbox");
  assert.deepEqual(storage.load("outbox", []), []);
});

test("storage reads an unreadable or missing value as the fallback", () => {
  globalThis.localStorage = memoryStorage();
  globalThis.localStorage.setItem("pad", "{not json");
  assert.equal(storage.load("pad", null), null);
  assert.deepEqual(storage.load("drafts", {}), {});
});

test("a full or refused storage never stops the page", () => {
  const refusing = () => { throw new Error("QuotaExceededError"); };
  globalThis.localStorage = { getItem: refusing, setItem: refusing, removeItem: refusing };
  assert.doesNotThrow(() => storage.save("outbox", [1]));
  assert.doesNotThrow(() => storage.remove("outbox"));
  assert.deepEqual(storage.load("outbox", []), []);
});

test("the CSRF token is the page's form field, or empty without one", () => {
  globalThis.document = { querySelector: () => ({ value: "token-1" }) };
  assert.equal(csrfToken(), "token-1");
  globalThis.document = { querySelector: () => null };
  assert.equal(csrfToken(), "");
});
