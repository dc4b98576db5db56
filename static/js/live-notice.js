// A live page with a form: a notice above it says what changed since, made
// on another phone (core/live.js: not this phone's own change).

import {noticeDue} from "./core/live.js";
import {find, on} from "./dom.js";
import {follow, main, status} from "./live.js";

/** @type {HTMLInputElement} */
const field = find("form [name=version]");
// The version the form was made at: its own, else the page's (queue.js moves it on).
let formVersion = Number(field?.value || document.body.dataset.liveVersion);
on(document, "queue:follow", (next) => {
  formVersion = next.version;
});

follow(async (state, page) => {
  const known = page.version;
  page.version = state.version;
  if (!noticeDue(state, known, formVersion)) return;
  // data-live-since: the changes since the page's version (".../since/12").
  const since = new URL(String(formVersion),
                        new URL(document.body.dataset.liveSince, location.href));
  const response = await fetch(since, {credentials: "same-origin"});
  if (!response.ok) return;
  const notice = status("div", "live-notice", "live-notice");
  if (!notice.isConnected) {
    notice.tabIndex = -1;
    main.prepend(notice);
  }
  notice.innerHTML = await response.text();
  notice.querySelector(".live-hide").addEventListener("click", () => notice.remove());
});
