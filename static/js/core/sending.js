// How the changes kept on the phone (rounds and payments, changes.js) are
// sent: in the order made, each queue's one after the other, with the form's
// fields as typed (and its key, so a change sent twice is applied once:
// web/once.py).

import {isRound} from "./changes.js";

/** @typedef {import("./store.js").Item} Item */
/** @typedef {"saved" | "later" | "refused"} Verdict */

const RETRY_MS = [2_000, 4_000, 8_000, 15_000, 30_000];

/** The wait before trying again after ``failures`` (1 or more) in a row. */
export const retryDelay = (/** @type {number} */ failures) =>
  RETRY_MS[Math.min(failures, RETRY_MS.length) - 1];

/**
 * What the server said to a change sent: saved (it went on to its page: a
 * round's, or the payment's page), later (no network, server down, signed
 * out, too many tries), or refused (its page again, saying why).
 * @param {{redirected: boolean, ok: boolean, status: number}} response
 * @returns {Verdict}
 */
export function verdict(response) {
  if (response.redirected && response.ok) return "saved";
  const later = response.status >= 500 || response.status === 403 || response.status === 429;
  return later ? "later" : "refused";
}

/** The body a change is sent with: its fields, with a fresh CSRF token if one came. */
export function body(/** @type {Item} */ item, /** @type {string | null} */ token) {
  const sent = new URLSearchParams(item.fields);
  if (token) sent.set("csrf_token", token);
  return sent;
}

/**
 * A fresh CSRF token from ``url`` asked for JSON (a round's form, a payment's
 * page: web/once.py ``fresh_token``): the token may have expired while the
 * change waited (an hour). Throws if the phone is no longer signed in to the
 * change's group (403) or the session is another group's (404).
 * @param {string} url @returns {Promise<string | null>}
 */
export async function freshToken(url) {
  const answer = await fetch(url, {credentials: "same-origin",
                                   headers: {Accept: "application/json"}});
  if (answer.status === 403 || answer.status === 404) throw new Error("not this sign-in's");
  return answer.ok ? (await answer.json()).token ?? null : null;
}

/**
 * Sends ``item`` as its form would be, with a fresh token (one per address it
 * comes from, ``item.token`` or the form's, kept in ``tokens``): what the
 * server said, and its answer (none if nothing came back).
 * @param {Item} item @param {Record<string, string | null>} tokens
 * @returns {Promise<{answer: Verdict, response: Response | null}>}
 */
export async function post(item, tokens) {
  const from = tokenFrom(item);
  try {
    tokens[from] ||= await freshToken(from);
    const response = await fetch(item.url, {method: "POST", body: body(item, tokens[from]),
                                            credentials: "same-origin"});
    return {answer: verdict(response), response};
  } catch {
    return {answer: "later", response: null};
  }
}

/** Where a change's fresh CSRF token comes from. */
export const tokenFrom = (/** @type {Item} */ item) => item.token ?? item.url;

/** A field of a change as sent. */
export const field = (/** @type {Item} */ item, /** @type {string} */ name) =>
  item.fields.find(([key]) => key === name)?.[1];

/**
 * Sends ``items`` in order through ``send``, adding each saved to ``sent``. A
 * queue's changes (a session's rounds, a page's payments) stop at its first
 * not saved; a change refused is sent only when it is ``only``, or
 * (``untold``: the sender can show it) when no page has shown it yet, and
 * stops everything: its page comes back, saying why.
 * @param {Item[]} items
 * @param {(item: Item) => Promise<Verdict>} send
 * @param {{only?: number | null, sent?: Item[], untold?: boolean}} [options]
 */
export async function sendInOrder(items, send, {only = null, sent = [], untold = false} = {}) {
  const stopped = new Set();  // queues whose next change can't go yet
  let later = false;
  for (const item of items) {
    const held = item.refused && item.id !== only && !(untold && item.told === false);
    if (stopped.has(item.board) || held) {
      stopped.add(item.board);
      continue;
    }
    const answer = await send(item);
    if (answer === "saved") {
      sent.push(item);
      continue;
    }
    stopped.add(item.board);
    later ||= answer === "later";
    if (answer === "refused") return {sent, later, refused: item};
  }
  return {sent, later, refused: null};
}

/**
 * The round a new round's form made at ``version`` is for when rounds of its
 * session (``board``) wait on the phone: the one after the last not refused,
 * at the version that round's save takes (services/versioning.py: every
 * change takes the next version). Null if none waits, or the form is newer.
 * @param {Item[]} items @param {string} board @param {number} version
 */
export function following(items, board, version) {
  const last = items.filter((item) => isRound(item) && item.board === board && !item.refused).at(-1);
  if (last?.number === undefined || last.version === undefined || last.version < version) return null;
  return {number: last.number + 1, version: last.version + 1};
}
