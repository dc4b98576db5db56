// The rounds kept on this phone to be sent (IndexedDB), in the order they
// were entered (their ids); the news of those the service worker sent with
// no page to say it (SENT_STORE), for the next page; and forgetting
// everything the phone keeps of a group when it signs out.

import {forgetHands} from "./hands.js";
import {DATABASE, PAGES, REFUSED, ROUNDS, SENT, SENT_STORE, WAITING} from "./names.js";

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

/** Every round kept, in the order entered. @returns {Promise<Item[]>} */
export const waiting = () => transact("readonly", (store) => store.getAll());

/** Keeps ``item`` (as a new round, or in place of the one of its id); its id. */
export const keep = (/** @type {Item} */ item) =>
  transact("readwrite", (store) => store.put(item)).then(Number);

export const drop = (/** @type {number} */ id) =>
  transact("readwrite", (store) => store.delete(id));

/**
 * A round sent, as the page shown next says it: its number, its page's
 * address (url) and its session's scoreboard (board).
 * @typedef {{number: number, url: string, board: string}} Sent
 */

/**
 * The service worker sent ``sent`` (Items saved): news for the next page,
 * which the worker has none to tell it on. @param {Item[]} sent
 */
export async function tellSent(sent) {
  for (const item of sent) {
    const news = {number: item.number, url: item.saved, board: item.board};
    await transact("readwrite", (store) => store.add(news), SENT_STORE);
  }
}

/**
 * The news of rounds the worker sent, in order, taken (so said once, by
 * whichever page takes it). @returns {Promise<Sent[]>}
 */
export async function takeSent() {
  /** @type {Sent[]} */
  const news = await transact("readwrite", (store) => {
    const all = store.getAll();
    all.onsuccess = () => store.clear();  // in the same transaction: one page takes it
    return all;
  }, SENT_STORE);
  return news.map(({number, url, board}) => ({number, url, board}));
}

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
