// A live page (no form): on a change, its live regions ([data-live] with an
// id) are fetched again and put in place, keeping the scroll, what is open,
// what was typed and the focus. A screen reader is told of another phone's
// change only: the state says whether it was this phone's own (a tap here
// whose answer is on its way, or another tab of the same phone). A page showing the round being
// entered (data-live-hands) follows its hands too; the home page, its
// group's sessions in play (core/live.js says what is news). A region may
// change by itself too: [data-live-until] says in how many seconds (a hand
// being typed on a phone gone quiet counts as sent then), and the page is
// fetched again then.

import {follow, main, showGone, status} from "./live.js";
import {gettext} from "./strings.js";

let lapse;

// The page fetched again, its regions put in place; null if it is gone.
async function refresh() {
  const response = await fetch(location.href, {credentials: "same-origin"});
  if (!response.ok) {
    showGone(response.status);
    return null;
  }
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  // The phone switched language (in another tab): the whole page comes in it.
  if (fresh.documentElement.lang !== document.documentElement.lang) {
    location.reload();
    return;
  }
  const y = window.scrollY;
  const focused = document.activeElement && document.activeElement.id;
  for (const region of document.querySelectorAll("[data-live][id]")) {
    const replacement = fresh.getElementById(region.id);
    if (!replacement) continue;
    const open = [...region.querySelectorAll("details[open][id]")].map((details) => details.id);
    // What was typed in a field of the region (an amount paid in part) stays.
    const typed = [...region.querySelectorAll("input[id]")]
      .filter((field) => field instanceof HTMLInputElement && field.value !== field.defaultValue)
      .map((field) => [field.id, /** @type {HTMLInputElement} */ (field).value]);
    region.replaceWith(document.adoptNode(replacement));
    for (const id of open) {
      const details = document.getElementById(id);
      if (details instanceof HTMLDetailsElement) details.open = true;
    }
    for (const [id, value] of typed) {
      const field = document.getElementById(id);
      if (field instanceof HTMLInputElement) field.value = value;
    }
  }
  window.scrollTo(0, y);
  if (focused) document.getElementById(focused)?.focus({preventScroll: true});
  expect();
  return fresh;
}

// The page changes by itself in [data-live-until] seconds: fetched again then.
function expect() {
  clearTimeout(lapse);
  const times = [...document.querySelectorAll("[data-live-until]")]
    .map((element) => Number(/** @type {HTMLElement} */ (element).dataset.liveUntil));
  if (times.length) lapse = setTimeout(() => refresh().catch(() => showGone(0)),
                                       (Math.min(...times) + 1) * 1000);
}

follow(async (state, page) => {
  const fresh = await refresh();
  if (!fresh) return;
  const {liveVersion, liveDraft, livePlaying} = fresh.body.dataset;
  if (liveVersion) page.version = Number(liveVersion);
  if (liveDraft) page.draft = Number(liveDraft);
  if (livePlaying !== undefined) page.playing = livePlaying;
  // For screen readers: a polite word that another phone changed the page under them.
  if (state.own) return;
  const said = status("p", "live-status", "sessions-vh");
  if (!said.isConnected) main.append(said);
  said.textContent = gettext("Brought up to date with a change from another phone.");
});
expect();
