// Copy to the clipboard with one tap: each button[data-copy] copies the value
// of the box it names and says how it went in the status line after it.
// Without this script the buttons stay hidden and the boxes stay selectable.
// A live page swaps its regions (live-regions.js): the buttons brought in are
// shown again, and clicks are taken on the document, so new buttons work too.

import {on} from "./dom.js";

const show = () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    /** @type {HTMLButtonElement} */ (button).hidden = false;
  }
};

if (navigator.clipboard) {
  show();
  on(document, "live:change", show);
  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element && event.target.closest("button[data-copy]");
    if (!(button instanceof HTMLButtonElement)) return;
    const box = /** @type {HTMLInputElement} */ (document.getElementById(button.dataset.copy));
    const status = button.nextElementSibling;
    try {
      await navigator.clipboard.writeText(box.value);
      status.textContent = "Copied: paste it into the chat.";
    } catch {
      box.select();
      status.textContent = "Could not copy: it is selected in its box, copy it from there.";
    }
  });
}
