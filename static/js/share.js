// Share links: copy a link's address with one tap. Without this script the
// address stays selectable in its read-only box.
"use strict";

if (navigator.clipboard) {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const address = document.getElementById(button.dataset.copy);
    const status = button.nextElementSibling;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(address.value);
        status.textContent = "Copied: paste it into the chat.";
      } catch {
        address.select();
        status.textContent = "Could not copy: the address is selected, copy it from the box.";
      }
    });
  }
}
