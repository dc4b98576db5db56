// The rounds kept sent by one routine, the page's and the service worker's
// (issue 25, 7): a fresh token from each form's JSON, the rounds in order, a
// round saved off the phone, one refused kept and shown. IndexedDB in memory
// (fake-indexeddb); the server is a fetch that answers as web/rounds.py does.
import "fake-indexeddb/auto";

import assert from "node:assert/strict";
import {beforeEach, test} from "node:test";

import {sendKept} from "../../static/js/core/outbox.js";
import {DATABASE} from "../../static/js/core/names.js";
import {keep, waiting} from "../../static/js/core/store.js";

const round = (/** @type {number} */ number, board = "/sessions/1") => ({
  board, url: `${board}/rounds/new`, number, version: number,
  fields: /** @type {[string, string][]} */ ([["key", `k${number}`], ["csrf_token", "old"]]),
  at: number, refused: false,
});

/** What was asked, in order: "GET url (accept)" or "POST url key token". */
/** @type {string[]} */
let asked = [];

/** A server answering each round's POST by its number: saved unless said. */
function serve(/** @type {Record<string, number>} */ statuses = {}) {
  asked = [];
  globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url,
                                               /** @type {any} */ init = {}) => {
    if (!init.method) {
      asked.push(`GET ${url} ${init.headers?.Accept}`);
      const status = url.startsWith("/sessions/9") ? 404 : 200;
      return {status, ok: status === 200, json: async () => ({token: "fresh"})};
    }
    const sent = new URLSearchParams(init.body);
    asked.push(`POST ${url} ${sent.get("key")} ${sent.get("csrf_token")}`);
    const status = statuses[sent.get("key") ?? ""] ?? 200;
    return {status, ok: status < 300, redirected: status === 200,
            url: `/sessions/1/rounds/${sent.get("key")?.slice(1)}`};
  });
}

beforeEach(() => new Promise((resolve) => {
  const request = indexedDB.deleteDatabase(DATABASE);
  request.onsuccess = request.onerror = resolve;
}));

test("the rounds kept go in order with a fresh token, and leave the phone", async () => {
  await keep(round(12));
  await keep(round(13));
  serve();
  const result = await sendKept();
  assert.deepEqual(asked, ["GET /sessions/1/rounds/new application/json",
                           "POST /sessions/1/rounds/new k12 fresh",
                           "POST /sessions/1/rounds/new k13 fresh"]);
  assert.deepEqual(result.sent.map((item) => item.saved),
                   ["/sessions/1/rounds/12", "/sessions/1/rounds/13"]);
  assert.deepEqual(await waiting(), []);
});

test("a round refused stays, marked, and is shown; the next waits for it", async () => {
  await keep(round(12));
  await keep(round(13));
  serve({k12: 409});
  /** @type {[number, string | null][]} */
  const shown = [];
  const result = await sendKept({refused: (item, token) => { shown.push([item.number ?? 0, token]); }});
  assert.deepEqual(shown, [[12, "fresh"]]);
  assert.equal(result.refused?.number, 12);
  assert.deepEqual((await waiting()).map((item) => [item.number, item.refused]),
                   [[12, true], [13, false]]);
});

test("a round the worker is refused is sent again by the next page, which shows it", async () => {
  await keep(round(12));
  serve({k12: 409});
  assert.equal((await sendKept()).refused?.number, 12);  // the worker: no page
  assert.deepEqual((await waiting()).map((item) => [item.refused, item.told]), [[true, false]]);
  serve({k12: 409});
  /** @type {number[]} */
  const shown = [];
  await sendKept({refused: (item) => { shown.push(item.number ?? 0); }});
  assert.deepEqual(shown, [12]);
  assert.deepEqual((await waiting()).map((item) => item.told), [true]);
  serve({k12: 409});
  await sendKept({refused: (item) => { shown.push(item.number ?? 0); }});
  assert.deepEqual(asked, []);  // shown once: it waits for its form now
});

test("no network, a server down, or another sign-in's session: all wait", async () => {
  await keep(round(12));
  await keep(round(20, "/sessions/9"));
  serve({k12: 503});
  const result = await sendKept();
  assert.equal(result.later, true);
  assert.deepEqual(asked, ["GET /sessions/1/rounds/new application/json",
                           "POST /sessions/1/rounds/new k12 fresh",
                           "GET /sessions/9/rounds/new application/json"]);
  globalThis.fetch = async () => { throw new TypeError("Failed to fetch"); };
  assert.equal((await sendKept()).later, true);
  assert.equal((await waiting()).length, 2);
});

const payment = (/** @type {string} */ key, page = "/sessions/1/settle") => ({
  kind: "payment", board: page, url: `${page}/paid`, token: page,
  payment: {payer: "Ann", payee: "Ben", amount: "RM 5.50", undo: false},
  fields: /** @type {[string, string][]} */ ([["key", key], ["csrf_token", "old"], ["cents", "550"]]),
  at: 0, refused: false,
});

test("payments go by the same routine, their token from their page, in a queue of their own", async () => {
  await keep(round(12));
  await keep(payment("p1"));
  await keep(payment("p2", "/money"));
  serve({k12: 409, p2: 200});
  /** @type {string[]} */
  const shown = [];
  await sendKept({refused: (item) => { shown.push(String(item.number)); }});
  // The round refused stops its session's rounds, not the payments after it.
  assert.deepEqual(asked.slice(0, 2), ["GET /sessions/1/rounds/new application/json",
                                       "POST /sessions/1/rounds/new k12 fresh"]);
  assert.deepEqual(shown, ["12"]);
  serve();
  const result = await sendKept();
  assert.deepEqual(asked, ["GET /sessions/1/settle application/json",
                           "POST /sessions/1/settle/paid p1 fresh",
                           "GET /money application/json",
                           "POST /money/paid p2 fresh"]);
  assert.deepEqual(result.sent.map((item) => item.kind), ["payment", "payment"]);
  assert.deepEqual((await waiting()).map((item) => item.kind ?? "round"), ["round"]);
});

test("a payment refused on arrival is kept, marked, and shown with its fresh token", async () => {
  await keep(payment("p1"));
  globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url, /** @type {any} */ init = {}) => {
    if (!init.method) return {status: 200, ok: true, json: async () => ({token: "fresh"})};
    return {status: 200, ok: true, redirected: false, url};  // its page again, saying why
  });
  /** @type {[string | undefined, string | null][]} */
  const shown = [];
  const result = await sendKept({refused: (item, token) => { shown.push([item.payment?.amount, token]); }});
  assert.equal(result.refused?.kind, "payment");
  assert.deepEqual(shown, [["RM 5.50", "fresh"]]);
  assert.deepEqual((await waiting()).map((item) => [item.refused, item.told]), [[true, true]]);
});
