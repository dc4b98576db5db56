// Registers the service worker (sw.js, served by web/offline.py) and keeps a
// form that could not be sent as typed, saying so by its button; a new round's
// form goes to queue.js instead, which keeps the round until it can be sent.

import {newKey} from "./core/keys.js";

const script = document.querySelector("script[data-worker]");
const WAITING = "scorekeeper-waiting";  // queue.js keeps these two
const SENT = "scorekeeper-sent";
let sending = null;  // the form being sent, and its button
let queue = null;
const loadQueue = () => (queue ||= import(script.dataset.queue));
const queued = (form) => form.matches("form.round-form[data-queue]");
const waiting = () => Number(localStorage.getItem(WAITING)) > 0;

// Kept by the queue rather than said not sent (IndexedDB may be refused).
function keep({form, button}) {
  loadQueue().then((module) => module.save(form, button)).catch(() => notSent({form, button}));
}

if (waiting() || sessionStorage.getItem(SENT)) loadQueue().then((module) => module.start());

function notSent({form, button}) {
  form.querySelector(".offline-unsent")?.remove();
  const note = document.createElement("p");
  note.className = "offline-unsent";
  note.setAttribute("role", "alert");
  note.textContent = "No network: nothing was sent. What you typed is still here; " +
    "send it again when the phone is back online.";
  if (button && button.form === form) button.before(note);
  else form.append(note);
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register(script.dataset.worker, {scope: script.dataset.scope})
    .catch(() => {});  // no worker: the app works online as before
  // Loaded while the worker was starting: not yet in its hands.
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller) registration.active.postMessage("claim");
  });
  // The worker found no network for a form sent (its 204 kept this page).
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data === "not-sent" && sending) (queued(sending.form) ? keep : notSent)(sending);
  });
}

// With the phone offline, a form is not sent at all; a new round is kept,
// as is one behind rounds that wait (they go first) or refused once.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || form.method !== "post") return;
  sending = {form, button: event.submitter};
  if (queued(form) && (!navigator.onLine || waiting() || form.dataset.queued)) {
    event.preventDefault();
    keep(sending);
  } else if (!navigator.onLine) {
    event.preventDefault();
    notSent(sending);
  }
});

// A page from the worker's cache (sw.js adds this bar): a form shown again is
// a new change, so it gets a new key, of the time its form was made (or the
// page kept). The bar follows the network; once something is typed, its link
// goes: a reload would lose what was typed.
const bar = document.querySelector(".offline-bar");
if (bar) {
  for (const field of document.querySelectorAll("input[type=hidden][name=key]")) {
    const made = /^([0-9]+)\./.exec(field.value);
    field.value = newKey(made ? made[1] : bar.dataset.kept);
  }
  const text = bar.querySelector(".offline-bar-text");
  const again = bar.querySelector(".offline-bar-again");
  const follow = () => {
    text.textContent = `${navigator.onLine ? "Back online" : "Offline"}, as of ${bar.dataset.seen}`;
    again.textContent = navigator.onLine ? "Reload" : "Try again";
  };
  window.addEventListener("online", follow);
  window.addEventListener("offline", follow);
  document.addEventListener("input", () => again.remove(), {once: true});
}
