// Reads hands as JSON on stdin ([[text, joker points], …]) and writes what the
// JavaScript core makes of each: the card of every token (null: none) and the
// points of those read. Run by tests/rules/test_cards_js.py.
import {readFileSync} from "node:fs";

import {parseCard, points, tokens} from "../../static/js/core/cards.js";

/** @type {[string, number][]} */
const hands = JSON.parse(readFileSync(0, "utf8"));
const read = hands.map(([text, jokerPoints]) => {
  const cards = tokens(text).map(parseCard);
  const total = cards.reduce((sum, card) => sum + (card ? points(card, jokerPoints) : 0), 0);
  return {cards: cards.map((card) => card && card.key), points: total};
});
process.stdout.write(JSON.stringify(read));
