// The changes kept on the phone to send later, of two kinds: a round (its
// form's Save) and a payment (marked paid, in whole or in part, or taken
// back). Each is a form's action, its fields as sent (with its once-only key:
// sent twice, applied once) and where it is said to wait; the kinds differ
// only in what they say, and in that a round's form follows on to the next.

/** @typedef {import("./store.js").Item} Item */
/** @typedef {import("./store.js").Payment} Payment */

/** A round's form: ``data-queue`` its session's scoreboard (its rounds go in order). */
export const ROUND = "round";
/** A payment's form: ``data-queue`` the page it is on, ``data-payment`` what it says. */
export const PAYMENT = "payment";

/** Kept before payments came: every item without a kind is a round. */
export const kindOf = (/** @type {{kind?: string}} */ item) => item.kind ?? ROUND;
export const isRound = (/** @type {{kind?: string}} */ item) => kindOf(item) === ROUND;

/**
 * Whether a page (its path) is under a queue's path, where its changes are
 * shown: the path itself or a page below it ("/sessions/1/rounds/2"), not
 * another that begins alike ("/sessions/10").
 * @param {string} path
 * @param {string} queue
 */
export const under = (path, queue) => path === queue || path.startsWith(`${queue}/`);

/**
 * What the page's form kept with no network is, to keep: its action (url),
 * the path of its queue (``data-queue``: whose changes go in order, and the
 * pages under it that show them waiting), its fields as sent, when (ms), and
 * for a payment its form's ``data-payment`` (JSON, from the server: the
 * names and the amount as shown; an amount typed for a part is said as typed).
 * A round's fresh CSRF token comes from its form's address, a payment's from
 * the page it is on (both answer JSON: web/once.py ``fresh_token``).
 * @param {{url: string, queue: string, fields: [string, string][], at: number,
 *   payment?: string}} form
 * @returns {Item}
 */
export function kept({url, queue, fields, at, payment}) {
  const value = (/** @type {string} */ name) => fields.find(([key]) => key === name)?.[1];
  const item = {board: queue, url, fields, at, refused: false};
  if (payment === undefined) {
    return {kind: ROUND, ...item, number: Number(value("number")), version: Number(value("version"))};
  }
  const shown = JSON.parse(payment);
  const typed = value("amount")?.trim();
  return {kind: PAYMENT, ...item, token: queue, payment: {
    payer: String(shown.payer), payee: String(shown.payee), undo: Boolean(shown.undo),
    amount: typed ? `${shown.currency} ${typed}` : String(shown.amount)}};
}

/**
 * A change sent, as the page shown next says it (store.js's Sent): its
 * page's address (url), its queue (board), its key, and what it was.
 * @param {Item} item
 */
export function news(item) {
  const {kind = ROUND, number, payment, saved = "", board} = item;
  const key = item.fields.find(([name]) => name === "key")?.[1];
  return {kind, url: saved, board, ...(key ? {key} : {}), ...(payment ? {payment} : {number})};
}

/**
 * The news ``known`` with ``sent`` added, each change once (the page and the
 * worker may both tell it): by its key (two payments go on to the same page),
 * else, as news kept before keys were in it, by its page.
 * @template {{url: string, key?: string}} T @param {T[]} known @param {T[]} sent
 */
export function withNews(known, sent) {
  const same = (/** @type {T} */ one, /** @type {T} */ other) =>
    (one.key ?? one.url) === (other.key ?? other.url);
  return [...known, ...sent.filter((item) => !known.some((seen) => same(seen, item)))];
}
