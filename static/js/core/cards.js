// Cards as the engine reads and counts them (rules/cards.py, house.py), as
// tests/rules/test_cards_js.py checks.

/** @typedef {{key: string, label: string, rank: number, suit: string}} Card */

export const SUITS = "SHDC";
/** @type {Record<string, string>} */
const SYMBOLS = {S: "♠", H: "♥", D: "♦", C: "♣"};
/** @type {Record<string, number>} */
const RANKS = {A: 1, T: 10, J: 11, Q: 12, K: 13};
for (let rank = 2; rank <= 10; rank++) RANKS[rank] = rank;
/** @type {Record<string, string>} */
const SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"};
/** @type {Card} */
export const JOKER = {key: "JK", label: "JK", rank: 0, suit: ""};
// Commas, semicolons and Python's whitespace (str.isspace), not JS's \s:
// eslint-disable-next-line no-control-regex -- \x1c-\x1f are whitespace to Python
const SEPARATORS = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000,;]+/;

// A rank as written: 1 and 14 (an ace above the king) are A.
export const labelOf = (/** @type {number} */ rank) =>
  rank === 1 || rank === 14 ? "A" : ["J", "Q", "K"][rank - 11] || String(rank);

// The card a token of tokens() names ("10h", "A♠", "jk"), or null.
export function parseCard(/** @type {string} */ token) {
  const text = token.replace(/\uFE0F/g, "").toUpperCase();
  if (["JK", "JOKER", "★", "🃏"].includes(text)) return JOKER;
  const chars = Array.from(text);
  const last = chars.pop() || "";
  const suit = Object.hasOwn(SUIT_OF, last) ? SUIT_OF[last] : last;
  const rank = chars.join("");
  if (!Object.hasOwn(RANKS, rank) || !suit || !SUITS.includes(suit)) return null;
  const label = labelOf(RANKS[rank]);
  return {key: label + suit, label, rank: RANKS[rank], suit};
}

export const tokens = (/** @type {string} */ text) => text.split(SEPARATORS).filter(Boolean);

// A hand in capitals, one space apart.
export const written = (/** @type {string} */ text) => tokens(text).join(" ").toUpperCase();

export const points = (/** @type {Card} */ card, /** @type {number} */ jokerPoints) =>
  card === JOKER ? jokerPoints : card.rank === 1 ? 15 : Math.min(card.rank, 10);

export const short = (/** @type {string} */ key) => key.slice(0, -1) + SYMBOLS[key.slice(-1)];

/** A run from ``from`` to ``label``, an ace at the nearer end (A 2 3, Q K A). @param {Card} from @param {string} label */
export function run(from, label) {
  let end = RANKS[label];
  if (end === 1 && 14 - from.rank < from.rank - 1) end = 14;
  if (end === from.rank) return null;
  const step = end > from.rank ? 1 : -1;
  const cards = [];
  for (let rank = from.rank + step; rank !== end + step; rank += step) {
    cards.push(labelOf(rank) + from.suit);
  }
  return cards;
}

// ``from``'s rank in the next suits (♠ ♥ ♦ ♣, round), its own last.
export const sameRank = (/** @type {Card} */ from) =>
  [1, 2, 3, 4].map((k) => from.label + SUITS[(SUITS.indexOf(from.suit) + k) % 4]);
