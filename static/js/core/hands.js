// A hand typed in a round filled in together (together.js): kept on the
// phone until the server has it, and sent as it is typed once it reads as
// cards. Kept in Web Storage as HAND + "<session>:<round>:<player>".

import {parseCard, tokens} from "./cards.js";
import {HAND, LEFT} from "./names.js";

/** @typedef {{outcome: string, cards: string, base: number}} Kept */
/**
 * Web Storage, as much of it as is used here (the core's types have no DOM).
 * @typedef {{length: number, key(index: number): string | null, getItem(name: string): string | null,
 *   setItem(name: string, value: string): void, removeItem(name: string): void}} Shelf
 */

/** The name a hand is kept under. @param {number} session @param {number} number @param {number} player */
export const keptName = (session, number, player) => `${HAND}${session}:${number}:${player}`;

/**
 * The hands kept for round ``number`` of ``session``, by player; those kept
 * for its rounds before it (saved, or changed on another phone) go. Those of
 * a later round stay: a form for a round kept on the phone, not yet sent,
 * moves on to the round after it (queue.js), whose hands they may be.
 * @param {Shelf} storage @param {number} session @param {number} number
 * @returns {Map<number, Kept>}
 */
export function keptHands(storage, session, number) {
  const found = new Map();
  sweep(storage, session, (round, player, name) => {
    if (round > number) return true;
    const hand = round === number ? read(storage.getItem(name)) : null;
    if (hand) found.set(player, hand);
    return Boolean(hand);
  });
  return found;
}

/**
 * The server says round ``number`` of ``session`` is the one being entered:
 * the hands kept for its later rounds go too (rounds deleted on another phone).
 * @param {Shelf} storage @param {number} session @param {number} number
 */
export const forgetLater = (storage, session, number) =>
  sweep(storage, session, (round) => round <= number);

/**
 * Each hand kept for ``session`` stays if ``stays(round, player, name)``.
 * @param {Shelf} storage @param {number} session
 * @param {(round: number, player: number, name: string) => boolean} stays
 */
function sweep(storage, session, stays) {
  const prefix = `${HAND}${session}:`;
  const names = Array.from({length: storage.length}, (_, i) => storage.key(i) ?? "");
  for (const name of names.filter((each) => each.startsWith(prefix))) {
    const [round, player] = name.slice(prefix.length).split(":").map(Number);
    if (!stays(round, player, name)) storage.removeItem(name);
  }
}

/** @param {string | null} text @returns {Kept | null} */
function read(text) {
  try {
    const hand = JSON.parse(text ?? "");
    const ok = typeof hand?.outcome === "string" && typeof hand.cards === "string"
      && Number.isInteger(hand.base);
    return ok ? {outcome: hand.outcome, cards: hand.cards, base: hand.base} : null;
  } catch {
    return null;
  }
}

/** Keep ``hand`` under ``name``, or forget it (null): the server has it. @param {Shelf} storage @param {string} name @param {Kept | null} hand */
export function keep(storage, name, hand) {
  try {
    if (hand) storage.setItem(name, JSON.stringify(hand));
    else storage.removeItem(name);
  } catch {
    // storage full or refused: the hand is still typed, and sent
  }
}

/**
 * Every hand kept, of every session, and those left out of a round saved
 * from another phone (round-saved.js: LEFT), on signing out. @param {Shelf} storage
 */
export function forgetHands(storage) {
  const names = Array.from({length: storage.length}, (_, i) => storage.key(i) ?? "");
  for (const name of names.filter((each) => each.startsWith(HAND) || each.startsWith(LEFT))) {
    storage.removeItem(name);
  }
}

/** Whether cards being typed read whole, every word a card: a word still being typed ("10") does not. @param {string} cards */
export const reads = (cards) => tokens(cards).every((token) => parseCard(token) !== null);

/**
 * ``act`` called once things are quiet for ``wait`` ms (``later``), at once
 * (``now``: a call waiting goes), or not (``cancel``).
 * @param {() => void} act @param {number} wait
 */
export function debounce(act, wait) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    later() {
      cancel();
      timer = setTimeout(() => {
        timer = undefined;
        act();
      }, wait);
    },
    now() {
      cancel();
      act();
    },
    cancel,
    get waiting() {
      return timer !== undefined;
    },
  };
}
