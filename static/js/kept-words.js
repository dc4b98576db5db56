// What the pages say of a change kept on the phone (core/changes.js), in the
// phone's language: a round by its number, a payment by who pays whom, how
// much, and whether it was marked paid or taken back. For queue.js.

import {isRound} from "./core/changes.js";
import {gettext} from "./strings.js";

/** @typedef {import("./core/store.js").Payment} Payment */

/** "Ann → Ben RM 5.50 marked paid", or "marked not paid" (one taken back), as
 * the history of changes says it. @param {Payment} payment */
function paying(payment) {
  const {payer, payee, amount} = payment;
  return payment.undo
    ? gettext("%(payer)s → %(payee)s %(amount)s marked not paid", {payer, payee, amount})
    : gettext("%(payer)s → %(payee)s %(amount)s marked paid", {payer, payee, amount});
}

/**
 * A change that waits, as the list of those kept says it.
 * @param {{kind?: string, number?: number, payment?: Payment, refused: boolean}} item
 */
export function waitingLine(item) {
  const number = item.number;
  if (isRound(item)) {
    return item.refused ? gettext("Round %(number)s was not saved", {number})
      : gettext("Round %(number)s, waiting to be sent", {number});
  }
  const change = paying(/** @type {Payment} */ (item.payment));
  if (item.refused) return gettext("%(change)s: not saved", {change});
  // Translators: "Ann → Ben RM 5.50 marked paid: waiting to be sent".
  return gettext("%(change)s: waiting to be sent", {change});
}

/**
 * A payment sent (store.js's Sent), as the page shown next says it.
 * @param {{payment?: Payment}} news
 */
export const paymentSent = (news) =>
  // Translators: "Ann → Ben RM 5.50 marked paid: sent, and saved."
  gettext("%(change)s: sent, and saved.", {change: paying(/** @type {Payment} */ (news.payment))});

/**
 * A payment the server refused as it arrived: said above the page it
 * answered with, which says why.
 * @param {{payment?: Payment}} item
 */
export const paymentRefused = (item) =>
  // Translators: above the server's reason: "Ann → Ben RM 3.00 marked paid, kept on this phone, was not saved:".
  gettext("%(change)s, kept on this phone, was not saved:", {change: paying(/** @type {Payment} */ (item.payment))});
