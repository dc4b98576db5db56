// How the rounds kept on the phone are sent: in the order entered, each
// session's one after the other, with the form's fields as typed (and its
// key, so a round sent twice is saved once: web/once.py).

/** @typedef {import("./store.js").Item} Item */
/** @typedef {"saved" | "later" | "refused"} Verdict */

const RETRY_MS = [2_000, 4_000, 8_000, 15_000, 30_000];

/** The wait before trying again after ``failures`` (1 or more) in a row. */
export const retryDelay = (/** @type {number} */ failures) =>
  RETRY_MS[Math.min(failures, RETRY_MS.length) - 1];

/**
 * What the server said to a round sent: saved (it went on to the round's
 * page), later (no network, server down, signed out, too many tries), or
 * refused (its form again, saying why).
 * @param {{redirected: boolean, ok: boolean, status: number}} response
 * @returns {Verdict}
 */
export function verdict(response) {
  if (response.redirected && response.ok) return "saved";
  const later = response.status >= 500 || response.status === 403 || response.status === 429;
  return later ? "later" : "refused";
}

/** The body a round is sent with: its fields, with a fresh CSRF token if one came. */
export function body(/** @type {Item} */ item, /** @type {string | null} */ token) {
  const sent = new URLSearchParams(item.fields);
  if (token) sent.set("csrf_token", token);
  return sent;
}

/** A field of a round as sent. */
export const field = (/** @type {Item} */ item, /** @type {string} */ name) =>
  item.fields.find(([key]) => key === name)?.[1];

/**
 * Sends ``items`` in order through ``send``, adding each saved to ``sent``. A
 * session's rounds stop at its first not saved; a round refused is sent only
 * when it is ``only``, and stops everything: its form comes back.
 * @param {Item[]} items
 * @param {(item: Item) => Promise<Verdict>} send
 * @param {{only?: number | null, sent?: Item[]}} [options]
 */
export async function sendInOrder(items, send, {only = null, sent = []} = {}) {
  const stopped = new Set();  // sessions whose next round can't go yet
  let later = false;
  for (const item of items) {
    if (stopped.has(item.board) || (item.refused && item.id !== only)) {
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
  const last = items.filter((item) => item.board === board && !item.refused).at(-1);
  if (!last || last.version < version) return null;
  return {number: last.number + 1, version: last.version + 1};
}
