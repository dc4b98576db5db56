// The changes kept on the phone (store.js: rounds and payments) sent by the
// protocol of sending.js:
// one routine for the page (queue.js) and for the service worker, which sends
// them by itself where the browser has Background Sync (sw-sync.js).

import {post, sendInOrder, tokenFrom} from "./sending.js";
import * as store from "./store.js";

/** @typedef {import("./store.js").Item} Item */

/** The Background Sync tag the page asks for as it keeps a change it could not
 * send, and the worker sends on (named when only rounds were kept: syncs
 * phones registered then still fire by it). */
export const SEND_CHANGES = "send-rounds";
/** The worker's message to the pages open: ``{[CHANGES_SENT]: true, sent: Item[],
 * refused: the id of a change refused, or null}``. */
export const CHANGES_SENT = "roundsSent";

/**
 * Sends what waits, in order. A change saved leaves the phone (``item.saved``:
 * the address of its page); one refused stays, marked so, and
 * ``refused(item, token)`` shows it (the page sends its form as the page).
 * Without ``refused`` (the worker) it stays untold, and the next sender that
 * can show it sends it again: its refusal comes back where someone sees it.
 * @param {{only?: number | null, sent?: Item[],
 *   refused?: (item: Item, token: string | null) => Promise<void> | void}} [options]
 */
export async function sendKept(options = {}) {
  // One sender at a time on the phone, its pages' and its worker's alike (Web
  // Locks): the page seeing the network back and the worker's sync event
  // would otherwise send the same change at once. The next reads the store
  // after the first, and passes over what it saved or marked refused.
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(SENDING, () => sendWaiting(options)) : sendWaiting(options);
}

/** The lock ``sendKept`` holds while it sends. */
export const SENDING = "scorekeeper-sending";

/** @param {Parameters<typeof sendKept>[0]} options */
async function sendWaiting({only = null, sent = [], refused} = {}) {
  /** @type {Record<string, string | null>} */
  const tokens = {};
  return sendInOrder(await store.waiting(), async (item) => {
    const {answer, response} = await post(item, tokens);
    if (answer === "saved" && response && item.id !== undefined) {
      item.saved = response.url;
      await store.drop(item.id);
    } else if (answer === "refused") {
      item.refused = true;
      item.told = Boolean(refused);
      await store.keep(item);
      await refused?.(item, tokens[tokenFrom(item)] ?? null);
    }
    return answer;
  }, {only, sent, untold: Boolean(refused)});
}
