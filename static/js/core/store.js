// The rounds kept on this phone to be sent (IndexedDB), in the order they
// were entered (their ids), and forgetting everything the phone keeps of a
// group when it signs out.

import {forgetHands} from "./hands.js";
import {DATABASE, PAGES, REFUSED, ROUNDS, SENT, WAITING} from "./names.js";

/**
 * A round kept: its session's scoreboard path (board), its form's (url), its
 * number, the session's version it is sent at, the form's fields as sent,
 * when it was kept (ms) and whether the server refused it; if so, whether a
 * page has shown its form (told: false when the service worker, with no page
 * to show it on, was refused); once sent, the address of its page (saved).
 * @typedef {{id?: number, board: string, url: string, number: number, version: number,
 *   fields: [string, string][], at: number, refused: boolean, told?: boolean,
 *   saved?: string}} Item
 */

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(ROUNDS, {keyPath: "id", autoIncrement: true});
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} work
 */
async function transact(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(ROUNDS, mode);
      const request = work(transaction.objectStore(ROUNDS));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** Every round kept, in the order entered. @returns {Promise<Item[]>} */
export const waiting = () => transact("readonly", (store) => store.getAll());

/** Keeps ``item`` (as a new round, or in place of the one of its id); its id. */
export const keep = (/** @type {Item} */ item) =>
  transact("readwrite", (store) => store.put(item)).then(Number);

export const drop = (/** @type {number} */ id) =>
  transact("readwrite", (store) => store.delete(id));

/**
 * Signing out: the pages the worker kept, the rounds and hands kept here go. (Another
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
