// Live pages follow the session's stream (web/live.py): on a change, the live
// regions ([data-live] with an id) are fetched again and put in place, keeping
// the scroll, what is open and the focus; a page with a form is never touched,
// a notice above it says what changed. Every change (a hand filled in together
// too) is told to other scripts by a "live:change" event ({version, draft}).

const body = document.body;
const main = document.getElementById("main");
let version = Number(body.dataset.liveVersion);
let source = null;
let refreshing = null;

function formVersion() {
  const field = document.querySelector("form [name=version]");
  return field && field.value ? Number(field.value) : version;
}

function make(tag, id, className) {
  const made = document.createElement(tag);
  made.id = id;
  made.className = className;
  made.setAttribute("role", "status");
  return made;
}

async function noticeChanges() {
  const since = body.dataset.liveSince.replace(/\d+$/, String(formVersion()));
  const response = await fetch(since, {credentials: "same-origin"});
  if (!response.ok) return;
  let notice = document.getElementById("live-notice");
  if (!notice) {
    notice = make("div", "live-notice", "live-notice");
    notice.tabIndex = -1;
    main.prepend(notice);
  }
  notice.innerHTML = await response.text();
  notice.querySelector(".live-hide").addEventListener("click", () => notice.remove());
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
    const open = [...region.querySelectorAll("details[open][id]")].map((details) => details.id);
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
  if (fresh.body.dataset.liveVersion) version = Number(fresh.body.dataset.liveVersion);
  // For screen readers: a polite word that the page changed under them.
  let status = document.getElementById("live-status");
  if (!status) {
    status = make("p", "live-status", "sessions-vh");
    main.append(status);
  }
  status.textContent = "Brought up to date with a change from another phone.";
}

function showGone(status) {
  if (document.getElementById("live-gone")) return;
  const gone = make("p", "live-gone", "live-notice");
  gone.textContent = status === 404
    ? "This was changed on another phone and is no longer here. Go back to the scoreboard."
    : "This page could not be brought up to date: reload it.";
  main.prepend(gone);
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
  document.dispatchEvent(new CustomEvent("live:change", {detail: state}));
}

function connect() {
  source = new EventSource(body.dataset.live);
  // One change at a time, each after the one before: the last state wins.
  source.onmessage = (event) => {
    const state = JSON.parse(event.data);
    refreshing = (refreshing || Promise.resolve()).then(() => follow(state)).catch(() => showGone(0));
  };
}

if (body.dataset.live && window.EventSource) {
  connect();
  // A phone that slept may have had its stream closed: open it again on waking.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && source.readyState === EventSource.CLOSED) {
      connect();
    }
  });
}
