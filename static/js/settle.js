// Settle up: copy the chat message with one tap. Without this script the
// message stays selectable in its read-only box.
"use strict";

const copyButton = document.getElementById("copy-share");
const shareText = document.getElementById("share-text");
const copyStatus = document.getElementById("copy-status");
if (copyButton && navigator.clipboard) {
  copyButton.hidden = false;
  copyButton.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shareText.value);
      copyStatus.textContent = "Copied: paste it into the chat.";
    } catch {
      shareText.select();
      copyStatus.textContent = "Could not copy: the text is selected, copy it from the box.";
    }
  });
}
