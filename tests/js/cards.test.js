// The card notation and the pad's moves, without a browser. Agreement with
// the engine on every card and on random hands: tests/rules/test_cards_js.py.
import assert from "node:assert/strict";
import {test} from "node:test";

import {labelOf, parseCard, points, run, sameRank, short, tokens, written} from
  "../../static/js/core/cards.js";

const card = (/** @type {string} */ token) => {
  const parsed = parseCard(token);
  assert.ok(parsed, token);
  return parsed;
};

test("a card in each spelling, and what is not one", () => {
  assert.deepEqual(parseCard("10h"), {key: "10H", label: "10", rank: 10, suit: "H"});
  assert.equal(card("th").key, "10H");
  assert.equal(card("A♠️").key, "AS");
  assert.equal(card("q♧").key, "QC");
  for (const joker of ["jk", "Joker", "★", "🃏"]) assert.equal(card(joker).key, "JK");
  for (const bad of ["", "1S", "11H", "AX", "A", "♠", "10", "A S"]) {
    assert.equal(parseCard(bad), null, bad);
  }
});

test("tokens split as the engine splits, and hands compare as written", () => {
  assert.deepEqual(tokens(" as,10h;;jk\u3000qd "), ["as", "10h", "jk", "qd"]);
  assert.deepEqual(tokens("AS\ufeffKD"), ["AS\ufeffKD"]);  // no space to Python
  assert.deepEqual(tokens("AS\x1cKD"), ["AS", "KD"]);  // a space to Python
  assert.equal(written("as, 10h  jk"), written("AS 10H JK"));
});

test("points: the joker's as the house says, aces 15, faces 10", () => {
  assert.equal(points(card("jk"), 25), 25);
  assert.equal(points(card("as"), 25), 15);
  assert.equal(points(card("kd"), 25), 10);
  assert.equal(points(card("7c"), 25), 7);
});

test("a run goes up or down to the rank, an ace at its nearer end", () => {
  assert.deepEqual(run(card("5H"), "8"), ["6H", "7H", "8H"]);
  assert.deepEqual(run(card("5H"), "3"), ["4H", "3H"]);
  assert.deepEqual(run(card("3S"), "A"), ["2S", "AS"]);
  assert.deepEqual(run(card("QS"), "A"), ["KS", "AS"]);
  assert.equal(run(card("5H"), "5"), null);
});

test("the same rank goes round the suits, its own last", () => {
  assert.deepEqual(sameRank(card("KD")), ["KC", "KS", "KH", "KD"]);
  assert.equal(short("10H"), "10♥");
  assert.deepEqual([1, 10, 11, 13, 14].map(labelOf), ["A", "10", "J", "K", "A"]);
});
