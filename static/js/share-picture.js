// "Share the result": each a[data-share-picture] links the session's picture
// (a PNG, with its download name) and works as a download with no script.
// Where the browser shares image files (core/share-file.js), a tap hands the
// picture to the phone's share sheet instead; if that fails for another
// reason than the sheet being closed, the picture is downloaded. Clicks are
// taken on the document, so a link brought in by a live swap works too.

import {afterFailure, shareWay} from "./core/share-file.js";
import {gettext} from "./strings.js";

const way = shareWay(navigator, new File([""], "result.png", {type: "image/png"}));

/**
 * @param {HTMLAnchorElement} link
 * @param {Blob} [blob] the picture fetched already: saved from memory
 */
function download(link, blob) {
  const saving = document.createElement("a");
  saving.href = blob ? URL.createObjectURL(blob) : link.href;
  saving.download = link.getAttribute("download") || "";
  saving.click();
  if (blob) setTimeout(() => URL.revokeObjectURL(saving.href), 60_000);
}

/** @param {HTMLAnchorElement} link */
async function share(link) {
  const status = document.getElementById(link.dataset.shareStatus || "");
  const say = (/** @type {string} */ text) => { if (status) status.textContent = text; };
  /** @type {Blob | undefined} */
  let blob;
  try {
    const response = await fetch(link.href, {credentials: "same-origin"});
    if (!response.ok) throw new Error(String(response.status));
    blob = await response.blob();
    const file = new File([blob], link.getAttribute("download") || "result.png", {type: "image/png"});
    await navigator.share({files: [file]});
    say(gettext("Shared."));
  } catch (error) {
    if (afterFailure(error) === "closed") return say("");
    download(link, blob);
    say(gettext("Could not share: the picture is downloaded instead."));
  }
}

document.documentElement.dataset.sharePicture = way;
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest("a[data-share-picture]");
  if (!(link instanceof HTMLAnchorElement) || way !== "share") return;
  event.preventDefault();
  share(link);
});
