// The buttons that send a message or a link on: each button[data-copy] copies
// the value of the box it names to the clipboard, each button[data-share]
// hands it to the phone's share sheet (Web Share), and each says how it went
// in the box's status line (#<box>-status). Each button is shown only where
// the browser can do what it does: without this script they stay hidden and
// the boxes stay selectable. A live page swaps its regions (live-regions.js):
// the buttons brought in are shown again, and clicks are taken on the
// document, so new buttons work too.

import {on} from "./dom.js";
import {gettext} from "./strings.js";

const can = {copy: Boolean(navigator.clipboard), share: typeof navigator.share === "function"};

const show = () => {
  for (const button of document.querySelectorAll("button[data-copy], button[data-share]")) {
    const kind = /** @type {HTMLButtonElement} */ (button).dataset.copy ? "copy" : "share";
    /** @type {HTMLButtonElement} */ (button).hidden = !can[kind];
  }
};

/** @param {HTMLButtonElement} button */
async function send(button) {
  const id = button.dataset.copy || button.dataset.share;
  const box = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.getElementById(id));
  const status = document.getElementById(`${id}-status`);
  if (!box || !status) return;
  if (button.dataset.share) {
    try {
      await navigator.share({text: box.value});
      status.textContent = gettext("Shared.");
    } catch (error) {
      // Closing the share sheet is a choice, not a failure.
      status.textContent = error instanceof DOMException && error.name === "AbortError"
        ? "" : gettext("Could not share: copy the message from its box.");
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(box.value);
    status.textContent = gettext("Copied: paste it into the chat.");
  } catch {
    box.select();
    status.textContent = gettext("Could not copy: it is selected in its box, copy it from there.");
  }
}

show();
on(document, "live:change", show);
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("button[data-copy], button[data-share]");
  if (button instanceof HTMLButtonElement) send(button);
});
