// Sign-out (groups/settings.html): what this phone keeps of the group goes
// first, the pages the worker kept and the rounds kept to be sent (forget,
// core/store.js), then the form is sent. With no network it is not, and the
// form says so (its data-forget); offline.js leaves a form stopped here alone.

import {NOT_SENT} from "./core/names.js";
import {forget} from "./core/store.js";
import {find, notSent} from "./dom.js";

/** @type {HTMLFormElement} */
const form = find("form[data-forget]");
const unsent = () => notSent(form, form.dataset.forget);

form.addEventListener("submit", (event) => {
  event.preventDefault();
  forget().catch(() => {}).finally(() => (navigator.onLine ? form.submit() : unsent()));
});

// Sent, but the worker found no network (its 204 kept this page).
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data === NOT_SENT) unsent();
});
