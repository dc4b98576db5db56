// A round's result page: the hands typed on this phone that a round saved
// from another phone does not hold (round-saved.js kept them, LEFT + the
// session), in a box to copy, with that round's edit page a tap away, until
// "Forget them" (or the tab closes, or the phone signs out). The box is the
// page's #round-left[data-left] (the session), hidden until there is
// something to show; shown again after a live swap of the page.

import {LEFT} from "./core/names.js";
import {find, on} from "./dom.js";
import {gettext} from "./strings.js";

/** @returns {{number: number, url: string | null, edit: string | null, hands: string[]} | null} */
function read(name) {
  try {
    const left = JSON.parse(sessionStorage.getItem(name) ?? "");
    return Number.isInteger(left?.number) && Array.isArray(left.hands) ? left : null;
  } catch {
    return null;
  }
}

function show() {
  const box = document.querySelector("#round-left");
  if (!(box instanceof HTMLElement)) return;
  const left = read(LEFT + box.dataset.left);
  box.hidden = !left;
  if (!left) return;
  find("#round-left-title", box).textContent = gettext("Typed on this phone and not in round %(number)s",
                                                            {number: left.number});
  /** @type {HTMLTextAreaElement} */ (find("#round-left-text", box)).value = left.hands.join("\n");
  /** @type {HTMLTextAreaElement} */ (find("#round-left-text", box)).rows = left.hands.length;
  /** @type {HTMLAnchorElement} */
  const edit = find(".round-left-edit", box);
  edit.hidden = !left.edit;
  if (left.edit) {
    edit.href = left.edit;
    edit.textContent = gettext("Edit round %(number)s", {number: left.number});
  }
}

document.addEventListener("click", (event) => {
  const forget = event.target instanceof Element && event.target.closest(".round-left-forget");
  const box = forget && forget.closest("#round-left");
  if (!(box instanceof HTMLElement)) return;
  sessionStorage.removeItem(LEFT + box.dataset.left);
  show();
});
show();
on(document, "live:change", show);
