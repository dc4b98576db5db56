// The service worker's page side, and forms sent with no network (README.md).

import {CLAIM, NOT_SENT, SENT, WAITING} from "./core/names.js";
import {find, notSent} from "./dom.js";
import {gettext} from "./strings.js";

const script = find("script[data-worker]");
const UNSENT = gettext("No network: nothing was sent. What you typed is still here; send it again when the phone is back online.");
let sending = null;  // the form being sent, and its button
const loadQueue = () => import("./queue.js");
const queued = (form) => form.matches("form[data-queue]");
const waiting = () => Number(localStorage.getItem(WAITING)) > 0;
const unsent = ({form, button}) => notSent(form, UNSENT, button);

// Kept by the queue, else said not sent (IndexedDB may be refused).
function keep({form, button}) {
  loadQueue().then((module) => module.save(form, button)).catch(() => unsent({form, button}));
}

if (waiting() || sessionStorage.getItem(SENT)) loadQueue().then((module) => module.start());

if ("serviceWorker" in navigator) {
  const sync = "SyncManager" in window;  // sw-sync.js sends changes kept
  navigator.serviceWorker.register(script.dataset[sync ? "syncWorker" : "worker"],
    {scope: script.dataset.scope, type: sync ? "module" : "classic", updateViaCache: "none"})
    .catch(() => {});  // no worker: the app works online as before
  // Loaded while the worker was starting: not yet in its hands.
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller) registration.active.postMessage(CLAIM);
  });
  // The worker found no network for a form sent (its 204 kept this page).
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data === NOT_SENT && sending) (queued(sending.form) ? keep : unsent)(sending);
  });
}

// Offline, a form is not sent; a change queued (a new round, a payment:
// data-queue) is kept, as is one behind changes that wait (they go first).
document.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (event.defaultPrevented || form.method !== "post") return;
  // The language switch goes on the phone where the worker keeps the pages,
  // or with no network (language.js); else to the server.
  if (form.matches("form.language-switch")) {
    if (navigator.serviceWorker?.controller || !navigator.onLine) {
      event.preventDefault();
      const tag = /** @type {HTMLButtonElement} */ (event.submitter).value;
      import("./language.js").then((module) => module.switchHere(form, tag));
    }
    return;
  }
  sending = {form, button: event.submitter};
  if (queued(form) && (!navigator.onLine || waiting())) {
    event.preventDefault();
    keep(sending);
  } else if (!navigator.onLine) {
    event.preventDefault();
    unsent(sending);
  }
});

// A page from the worker's cache: its bar's link goes once something is typed.
const bar = document.querySelector(".offline-bar");
if (bar) {
  document.addEventListener("input", () => bar.querySelector("a")?.remove(), {once: true});
  import("./offline-bar.js");
}
