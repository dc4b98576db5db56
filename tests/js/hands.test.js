// A hand typed in a round filled in together: kept on the phone until the
// server has it, and sent as it is typed (core/hands.js).
import assert from "node:assert/strict";
import {test} from "node:test";

import {debounce, forgetLater, keep, keptHands, keptName, reads} from "../../static/js/core/hands.js";
import {HAND} from "../../static/js/core/names.js";
import {Storage} from "./storage.js";

const hand = (/** @type {string} */ cards, base = 0) => ({outcome: "dead", cards, base});

test("a hand is kept by session, round and player until the server has it", () => {
  const storage = new Storage();
  keep(storage, keptName(4, 2, 11), hand("5S 9H", 3));
  keep(storage, keptName(4, 2, 12), hand("KD"));
  keep(storage, keptName(5, 2, 11), hand("AS"));  // another session's
  assert.deepEqual(keptHands(storage, 4, 2), new Map([[11, hand("5S 9H", 3)], [12, hand("KD")]]));
  keep(storage, keptName(4, 2, 12), null);  // the server has it
  assert.deepEqual([...keptHands(storage, 4, 2).keys()], [11]);
  assert.deepEqual([...keptHands(storage, 5, 2).keys()], [11]);
});

test("a session's hands of another round go, and what is not a hand is dropped", () => {
  const storage = new Storage();
  keep(storage, keptName(4, 2, 11), hand("5S"));
  keep(storage, keptName(4, 3, 11), hand("9H"));
  storage.setItem(keptName(4, 3, 12), "{not json");
  storage.setItem(keptName(4, 3, 13), JSON.stringify({outcome: "dead", cards: 5, base: 0}));
  storage.setItem("scorekeeper-sent", "[]");
  assert.deepEqual(keptHands(storage, 4, 3), new Map([[11, hand("9H")]]));
  assert.deepEqual([...storage.keys()].sort(), [keptName(4, 3, 11), "scorekeeper-sent"]);
  assert.ok(keptName(4, 3, 11).startsWith(HAND));
});

test("a later round's hands stay for the form that moves on to it, until the server says otherwise", () => {
  // Round 2 kept on the phone offline, round 3's form typed in: the page
  // comes back as round 2's form (its copy), then moves on to round 3.
  const storage = new Storage();
  keep(storage, keptName(4, 3, 11), hand("9H"));
  assert.deepEqual(keptHands(storage, 4, 2), new Map());
  assert.deepEqual(keptHands(storage, 4, 3), new Map([[11, hand("9H")]]));
  keep(storage, keptName(4, 5, 11), hand("KD"));  // typed before round 4 was deleted elsewhere
  forgetLater(storage, 4, 3);  // the server: round 3 is the one being entered
  assert.deepEqual([...storage.keys()], [keptName(4, 3, 11)]);
});

test("a storage that refuses keeps nothing and says nothing", () => {
  const full = new Storage();
  full.setItem = () => { throw new Error("QuotaExceededError"); };
  keep(full, keptName(1, 1, 1), hand("5S"));
  assert.equal(full.size, 0);
});

test("cards read whole only when every word is a card", () => {
  assert.ok(reads("5S 9h jk 10♦"));
  assert.ok(reads(""));
  assert.ok(!reads("5S 10"));  // still typing the 10's suit
  assert.ok(!reads("5S 9X"));
});

test("a call waits for quiet, goes at once on demand, or not at all", async (t) => {
  t.mock.timers.enable({apis: ["setTimeout"]});
  /** @type {string[]} */
  const calls = [];
  const sender = debounce(() => calls.push("sent"), 800);
  sender.later();
  t.mock.timers.tick(500);
  sender.later();  // typing goes on: the wait starts again
  t.mock.timers.tick(700);
  assert.deepEqual(calls, []);
  assert.ok(sender.waiting);
  t.mock.timers.tick(100);
  assert.deepEqual(calls, ["sent"]);
  assert.ok(!sender.waiting);
  sender.later();
  sender.now();  // Enter: at once, and the call waiting goes
  t.mock.timers.tick(1000);
  assert.deepEqual(calls, ["sent", "sent"]);
  sender.later();
  sender.cancel();
  t.mock.timers.tick(1000);
  assert.deepEqual(calls, ["sent", "sent"]);
});
