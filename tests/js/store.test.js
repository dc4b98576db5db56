// The rounds kept on the phone, in an IndexedDB made in memory (fake-indexeddb),
// and what signing out forgets.
import "fake-indexeddb/auto";

import assert from "node:assert/strict";
import {beforeEach, test} from "node:test";

import {DATABASE, LEFT, PAGES, REFUSED, ROUNDS, SENT, STATIC, WAITING} from "../../static/js/core/names.js";
import {keptName, keep as keepHand} from "../../static/js/core/hands.js";
import {drop, forget, keep, takeSent, tellSent, waiting} from "../../static/js/core/store.js";
import {Storage} from "./storage.js";


/** Cache storage, by name only. */
class Caches {
  constructor(/** @type {string[]} */ names) { this.names = new Set(names); }
  async keys() { return [...this.names]; }
  async delete(/** @type {string} */ name) { return this.names.delete(name); }
}

const round = (/** @type {number} */ number) => ({
  board: "/sessions/1", url: "/sessions/1/rounds/new", number, version: number,
  fields: /** @type {[string, string][]} */ ([["key", `k${number}`]]), at: number,
  refused: false,
});

beforeEach(async () => {
  Object.assign(globalThis, {localStorage: new Storage(), sessionStorage: new Storage()});
  await forget();
});

test("rounds are kept in the order entered, put back in place, dropped", async () => {
  const first = await keep(round(12));
  const second = await keep(round(13));
  assert.ok(second > first);
  await keep({...round(12), id: first, refused: true});
  assert.deepEqual((await waiting()).map((kept) => [kept.number, kept.refused]),
    [[12, true], [13, false]]);
  await drop(first);
  assert.deepEqual((await waiting()).map((kept) => kept.id), [second]);
});

test("signing out forgets the rounds, the pages and hands kept and what the pages noted", async () => {
  const caches = new Caches([`${PAGES}abc`, `${PAGES}old`, `${STATIC}v1`]);
  Object.assign(globalThis, {caches});
  localStorage.setItem(WAITING, "1");
  sessionStorage.setItem(SENT, "[]");
  sessionStorage.setItem(REFUSED, "1");
  keepHand(sessionStorage, keptName(1, 3, 7), {outcome: "dead", cards: "5S", base: 0});
  sessionStorage.setItem(`${LEFT}1`, "{}");
  await keep(round(12));
  await tellSent([{...round(12), saved: "/sessions/1/rounds/12"}]);
  await forget();
  assert.deepEqual((await indexedDB.databases()).map((known) => known.name), []);
  assert.deepEqual(await caches.keys(), [`${STATIC}v1`]);
  assert.deepEqual([localStorage.size, sessionStorage.size], [0, 0]);
});

test("the rounds the worker sent are news for the page shown next, taken once", async () => {
  await tellSent([{...round(12), saved: "/sessions/1/rounds/12"},
                  {...round(13), saved: "/sessions/1/rounds/13?saved=4"}]);
  assert.deepEqual(await takeSent(), [
    {kind: "round", key: "k12", number: 12, url: "/sessions/1/rounds/12", board: "/sessions/1"},
    {kind: "round", key: "k13", number: 13, url: "/sessions/1/rounds/13?saved=4", board: "/sessions/1"}]);
  assert.deepEqual(await takeSent(), []);  // said once
});

test("a phone's database from before the news keeps its rounds", async () => {
  await forget();
  await new Promise((resolve, reject) => {  // version 1, as a phone has it
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(ROUNDS, {keyPath: "id", autoIncrement: true})
        .add(round(7));
    };
    request.onsuccess = () => {
      request.result.close();
      resolve(null);
    };
    request.onerror = () => reject(request.error);
  });
  assert.deepEqual((await waiting()).map((kept) => kept.number), [7]);
  assert.deepEqual(await takeSent(), []);
});
