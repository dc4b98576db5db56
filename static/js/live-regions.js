// A live page (no form): on a change, its live regions ([data-live] with an
// id) are fetched again and put in place, keeping the scroll, what is open
// and the focus. A screen reader is told of another phone's change only: the
// state says whether it was this phone's own (a tap here whose answer is on
// its way, or another tab of the same phone).

import {follow, main, showGone, status} from "./live.js";

// A page showing the round being entered (data-live-hands) follows its hands
// too: the draft version.
const {liveDraft, liveHands} = document.body.dataset;
let draft = Number(liveDraft);

follow(async (state, page) => {
  const response = await fetch(location.href, {credentials: "same-origin"});
  if (!response.ok) {
    showGone(response.status);
    return;
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
    region.replaceWith(document.adoptNode(replacement));
    for (const id of open) {
      const details = document.getElementById(id);
      if (details instanceof HTMLDetailsElement) details.open = true;
    }
  }
  window.scrollTo(0, y);
  if (focused) document.getElementById(focused)?.focus({preventScroll: true});
  if (fresh.body.dataset.liveVersion) page.version = Number(fresh.body.dataset.liveVersion);
  if (fresh.body.dataset.liveDraft) draft = Number(fresh.body.dataset.liveDraft);
  // For screen readers: a polite word that another phone changed the page under them.
  if (state.own) return;
  const said = status("p", "live-status", "sessions-vh");
  if (!said.isConnected) main.append(said);
  said.textContent = "Brought up to date with a change from another phone.";
}, (state, page) => state.version > page.version
  || liveHands !== undefined && state.draft > draft);
