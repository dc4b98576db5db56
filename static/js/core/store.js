// The changes kept on this phone to be sent (IndexedDB, its store still
// named ROUNDS, as phones keep it), rounds and payments (changes.js), in the
// order they were made (their ids); the news of those the service worker sent
// with no page to say it (SENT_STORE), for the next page; and forgetting
// everything the phone keeps of a group when it signs out.

import {news} from "./changes.js";
import {forgetHands} from "./hands.js";
import {DATABASE, PAGES, REFUSED, ROUNDS, SENT, SENT_STORE, WAITING} from "./names.js";

/**
 * A payment kept, as the phone says it: who pays whom, the amount with its
 * currency ("RM 5.50"), and whether it is one taken back (undo).
 * @typedef {{payer: string, payee: string, amount: string, undo: boolean}} Payment
 */

/**
 * A change kept (changes.js): its kind (none: a round, kept before payments
 * came), its queue's path (board: a round's session's scoreboard, a payment's
 * page; each queue's changes go in order), its form's address (url), where a
 * fresh CSRF token comes from (token; none: url), the form's fields as sent,
 * when it was kept (ms) and whether the server refused it; if so, whether a
 * page has shown its form (told: false when the service worker, with no page
 * to show it on, was refused); once sent, the address of its page (saved). A
 * round has its number and the session's version it is sent at; a payment
 * what it says.
 * @typedef {{id?: number, kind?: string, board: string, url: string, token?: string,
 *   number?: number, version?: number, payment?: Payment,
 *   fields: [string, string][], at: number, refused: boolean, told?: boolean,
 *   saved?: string}} Item
 */

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    // Version 2 adds the news of rounds sent (a phone's version 1 keeps its rounds).
    const request = indexedDB.open(DATABASE, 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const name of [ROUNDS, SENT_STORE]) {
        if (!db.objectStoreNames.contains(name)) {
          db.createObjectStore(name, {keyPath: "id", autoIncrement: true});
        }
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} work
 */
async function transact(mode, work, name = ROUNDS) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** Every change kept, in the order made. @returns {Promise<Item[]>} */
export const waiting = () => transact("readonly", (store) => store.getAll());

/** Keeps ``item`` (as a new change, or in place of the one of its id); its id. */
export const keep = (/** @type {Item} */ item) =>
  transact("readwrite", (store) => store.put(item)).then(Number);

export const drop = (/** @type {number} */ id) =>
  transact("readwrite", (store) => store.delete(id));

/**
 * A change sent, as the page shown next says it (changes.js ``news``): its
 * kind, its page's address (url), its queue (board), its key, and a round's
 * number or the payment.
 * @typedef {{kind: string, url: string, board: string, key?: string, number?: number,
 *   payment?: Payment}} Sent
 */

/**
 * The service worker sent ``sent`` (Items saved): news for the next page,
 * which the worker has none to tell it on. @param {Item[]} sent
 */
export async function tellSent(sent) {
  for (const item of sent) {
    await transact("readwrite", (store) => store.add(news(item)), SENT_STORE);
  }
}

/**
 * The news of changes the worker sent, in order, taken (so said once, by
 * whichever page takes it). @returns {Promise<Sent[]>}
 */
export async function takeSent() {
  /** @type {(Sent & {id?: number})[]} */
  const taken = await transact("readwrite", (store) => {
    const all = store.getAll();
    all.onsuccess = () => store.clear();  // in the same transaction: one page takes it
    return all;
  }, SENT_STORE);
  return taken.map((sent) => {
    delete sent.id;  // the store's key, not the news
    return sent;
  });
}

/**
 * Signing out: the pages the worker kept, the changes and hands kept here go. (Another
 * tab holding the database open delays its deletion until it lets go: it is
 * asked for already.)
 */
export async function forget() {
  if (globalThis.caches) {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PAGES))
      .map((name) => caches.delete(name)));
  }
  localStorage.removeItem(WAITING);
  sessionStorage.removeItem(SENT);
  sessionStorage.removeItem(REFUSED);
  forgetHands(sessionStorage);
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DATABASE);
    request.onsuccess = request.onerror = request.onblocked = resolve;
  });
}
