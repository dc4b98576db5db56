// Keeps the screen on while a session is open (Screen Wake Lock API) unless
// switched off on this phone; asked again as the page shows. No API, no switch.

import {KEEP_SCREEN_ON as KEY} from "./core/names.js";
import {find} from "./dom.js";
import {gettext} from "./strings.js";

const bar = find(".wake");

if (bar && "wakeLock" in navigator) {
  /** @type {HTMLInputElement} */
  const input = find(".wake-input", bar);
  const status = find(".wake-status", bar);
  let lock = null;
  let asking = false;

  const show = (state, message = "") => {
    bar.dataset.state = state;
    status.textContent = message;
  };

  const release = async () => {
    const held = lock;
    lock = null;
    show("off");
    if (held) await held.release();
  };

  const acquire = async () => {
    if (!input.checked || lock || asking || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const held = await navigator.wakeLock.request("screen");
      held.addEventListener("release", () => {
        if (lock === held) lock = null;
      });
      lock = held;
      show("on");
      if (!input.checked) await release();  // switched off while asking
    } catch {
      // refused: power saving, or not allowed here
      show("refused", gettext("The screen could not be kept on: it may dim as usual."));
    } finally {
      asking = false;
    }
  };

  // Storage may be refused (private modes): the switch is then on, and forgets.
  try {
    input.checked = localStorage.getItem(KEY) !== "off";
  } catch {
    input.checked = true;
  }
  bar.hidden = false;
  input.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, input.checked ? "on" : "off");
    } catch {
      // not remembered
    }
    if (input.checked) acquire();
    else release();
  });
  document.addEventListener("visibilitychange", acquire);
  acquire();
}
