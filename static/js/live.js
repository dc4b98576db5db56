// Live pages: a session's page follows the changes made on other phones
// without a reload. The server streams the session's state (web/live.py); when
// the session changes, the page's live regions ([data-live] with an id) are
// fetched again and put in place, keeping the scroll position, what is open
// and what has focus. A page with a form being filled in is never touched: a
// notice above it says what changed and from which phone. Every change, the
// round filled in together's included, is also told to the page's other
// scripts as a "live:change" event on document ({version, draft}).
"use strict";

const body = document.body;
const streamUrl = body.dataset.live;
let version = Number(body.dataset.liveVersion);
let draft = Number(body.dataset.liveDraft);
let source = null;
let refreshing = null;

function formVersion() {
  const field = document.querySelector("form [name=version]");
  return field && field.value ? Number(field.value) : version;
}

async function noticeChanges() {
  const since = body.dataset.liveSince.replace(/\d+$/, String(formVersion()));
  const response = await fetch(since, {credentials: "same-origin"});
  if (!response.ok) return;
  let notice = document.getElementById("live-notice");
  if (!notice) {
    notice = document.createElement("div");
    notice.id = "live-notice";
    notice.className = "live-notice";
    notice.setAttribute("role", "status");
    notice.tabIndex = -1;
    const main = document.getElementById("main");
    main.insertBefore(notice, main.firstChild);
  }
  notice.innerHTML = await response.text();
  const hide = document.createElement("button");
  hide.type = "button";
  hide.className = "live-hide";
  hide.textContent = "Hide";
  hide.addEventListener("click", () => notice.remove());
  notice.appendChild(hide);
}

function openDetails(region) {
  return new Set([...region.querySelectorAll("details[open][id]")].map((d) => d.id));
}

async function refreshRegions() {
  const response = await fetch(location.href, {credentials: "same-origin"});
  if (!response.ok) {
    showGone(response.status);
    return;
  }
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  const y = window.scrollY;
  const focused = document.activeElement && document.activeElement.id;
  for (const region of document.querySelectorAll("[data-live][id]")) {
    const replacement = fresh.getElementById(region.id);
    if (!replacement) continue;
    const open = openDetails(region);
    region.replaceWith(document.adoptNode(replacement));
    for (const id of open) {
      const details = document.getElementById(id);
      if (details) details.open = true;
    }
  }
  window.scrollTo(0, y);
  if (focused && document.getElementById(focused)) {
    document.getElementById(focused).focus({preventScroll: true});
  }
  const freshBody = fresh.body.dataset;
  if (freshBody.liveVersion) version = Number(freshBody.liveVersion);
  announce("Brought up to date with a change from another phone.");
}

// For screen readers: a polite word that the page changed under them.
function announce(words) {
  let status = document.getElementById("live-status");
  if (!status) {
    status = document.createElement("p");
    status.id = "live-status";
    status.className = "sessions-vh";
    status.setAttribute("role", "status");
    document.getElementById("main").appendChild(status);
  }
  status.textContent = words;
}

function showGone(status) {
  if (document.getElementById("live-gone")) return;
  const gone = document.createElement("p");
  gone.id = "live-gone";
  gone.className = "live-notice";
  gone.setAttribute("role", "status");
  gone.textContent = status === 404
    ? "This was changed on another phone and is no longer here. Go back to the scoreboard."
    : "This page could not be brought up to date: reload it.";
  const main = document.getElementById("main");
  main.insertBefore(gone, main.firstChild);
}

async function follow(state) {
  if (state.version !== version) {
    if (body.dataset.liveSince) {
      version = state.version;
      await noticeChanges();
    } else {
      await refreshRegions();
    }
  }
  if (state.draft !== draft) draft = state.draft;
  document.dispatchEvent(new CustomEvent("live:change", {detail: state}));
}

function changed(event) {
  const state = JSON.parse(event.data);
  // One refresh at a time, each after the one before: the last state wins.
  refreshing = (refreshing || Promise.resolve())
    .then(() => follow(state))
    .catch(() => showGone(0));
}

function connect() {
  source = new EventSource(streamUrl);
  source.onmessage = changed;
}

if (streamUrl && window.EventSource) {
  connect();
  // A phone that slept may have had its stream closed: open it again on waking.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && source.readyState === EventSource.CLOSED) {
      connect();
    }
  });
}
