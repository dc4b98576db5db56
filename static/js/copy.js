// Copy to the clipboard with one tap: each button[data-copy] copies the value
// of the box it names and says how it went in the status line after it.
// Without this script the buttons stay hidden and the boxes stay selectable.

if (navigator.clipboard) {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    if (!(button instanceof HTMLButtonElement)) continue;
    const box = /** @type {HTMLInputElement} */ (document.getElementById(button.dataset.copy));
    const status = button.nextElementSibling;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(box.value);
        status.textContent = "Copied: paste it into the chat.";
      } catch {
        box.select();
        status.textContent = "Could not copy: it is selected in its box, copy it from there.";
      }
    });
  }
}
