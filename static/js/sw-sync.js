// The service worker where the browser has Background Sync (Chrome on
// Android): sw.js, as a module, and the changes kept on the phone (rounds,
// payments) sent by themselves when the network is back, even with the app
// closed, by the routine the pages use (core/outbox.js). offline.js registers it as a module
// worker there, and sw.js elsewhere (a classic script: not every browser runs
// module workers). Served by web/offline.py with the root as its scope.

import "./sw.js";
import {CHANGES_SENT, SEND_CHANGES, sendKept} from "./core/outbox.js";
import {tellSent} from "./core/store.js";

/** @type {ServiceWorkerGlobalScope} */
const scope = /** @type {any} */ (self);

// queue.js asks for it as it keeps a change it could not send; the browser
// fires it once the network is back, and again later (its own back-off) if a
// change must wait.
// (A SyncEvent: Background Sync is not in TypeScript's lib.)
scope.addEventListener("sync", (/** @type {ExtendableEvent & {tag: string}} */ event) => {
  if (event.tag !== SEND_CHANGES) return;
  event.waitUntil(sendKept().then(async ({sent, later, refused}) => {
    // The news waits for a page (the app may be closed): the first to take
    // it says so, as if it had sent them (queue.js); the pages open are told.
    await tellSent(sent).catch(() => {});  // storage refused: the pages open are still told
    if (sent.length || refused) {
      for (const client of await scope.clients.matchAll({type: "window"})) {
        client.postMessage({[CHANGES_SENT]: true, sent, refused: refused?.id ?? null});
      }
    }
    if (later) throw new Error("Not sent yet: tried again later.");
  }));
});
