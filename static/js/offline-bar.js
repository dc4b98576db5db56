// The bar of a page shown from the worker's cache ("Offline, as of 21:04"):
// it follows the network (offline.js takes its link away once something is
// typed). A form shown again is a new change: it gets a new key,
// of the time its form was made (or the page kept).

import {keyTime, newKey} from "./core/keys.js";
import {find} from "./dom.js";
import {gettext} from "./strings.js";

const bar = find(".offline-bar");
for (const field of document.querySelectorAll("input[type=hidden][name=key]")) {
  const key = /** @type {HTMLInputElement} */ (field);
  key.value = newKey(keyTime(key.value) ?? bar.dataset.kept ?? "");
}
const text = find(".offline-bar-text", bar);
const again = find(".offline-bar-again", bar);
// The worker's bar says "Offline, as of" with the same msgids (web/offline.py).
const follow = () => {
  const time = bar.dataset.seen;
  text.textContent = navigator.onLine ? gettext("Back online, as of %(time)s", {time})
    : gettext("Offline, as of %(time)s", {time});
  again.textContent = navigator.onLine ? gettext("Reload") : gettext("Try again");
};
window.addEventListener("online", follow);
window.addEventListener("offline", follow);
