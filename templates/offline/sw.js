// The service worker (rendered by web/offline.py, whose docstring says what
// the server tells it). Static files are cached ahead, under this deploy's
// names; the group pages this phone opens are kept as it sees them (network
// first), and shown from the cache when the network is gone, marked
// "Offline, as of 21:04"; a page never seen gets the offline page.
"use strict";

const VERSION = {{ version|tojson }};
const STATIC = "static-" + VERSION;
const FILES = {{ files|tojson }};  // plain URL: fingerprinted URL
const OFFLINE = {{ offline_url|tojson }};
const SHORTCUT = {{ shortcut_url|tojson }};
const SIGN_OUT = {{ sign_out_url|tojson }};
const SIGN_IN = {{ sign_in_header|tojson }};
const KEEP = {{ keep_header|tojson }};
const SEEN = "Scorekeeper-Seen-At";  // when this phone kept the page (ms)
const PAGES = "pages-";  // and the sign-in's public id: one sign-in's pages at a time
const MAX_PAGES = 100;
const FINGERPRINT = /^(.+)\.[0-9a-f]{8}(\.[^./]+)?$/;
const SERVER_DOWN = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC)
    .then((cache) => cache.addAll([...Object.values(FILES), OFFLINE]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("static-") && name !== STATIC)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim())
    .then(keepOpenPages));
});

// A page that loaded while the worker was starting asks to be controlled.
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

// The pages open when the worker starts were loaded before it: fetched again
// to be kept, so that the page a phone first installs from works offline too.
async function keepOpenPages() {
  for (const client of await self.clients.matchAll({type: "window"})) {
    const request = new Request(client.url);
    try {
      const response = await fetch(request);
      await remember(request, response, response);
    } catch (error) {
      // Offline already: nothing to keep.
    }
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(url.pathname === SIGN_OUT ? forget().then(() => send(request))
      : send(request));
  } else if (request.method !== "GET" || request.headers.get("Accept") === "text/event-stream") {
    // Other POSTs and the live pages' streams go their own way.
  } else if (currentFile(url)) {
    event.respondWith(staticFile(request, currentFile(url)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else {
    // A script fetching a page (live.js brings it up to date): kept as seen.
    event.respondWith(fetch(request).then((response) => observe(event, response)));
  }
});

// Static files

function currentFile(url) {
  if (FILES[url.pathname]) return FILES[url.pathname];
  const parts = FINGERPRINT.exec(url.pathname);
  return parts ? FILES[parts[1] + (parts[2] || "")] : undefined;
}

async function staticFile(request, current) {
  return (await caches.match(current, {cacheName: STATIC})) || fetch(request);
}

// Pages

async function page(event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return (await keptPage(request)) || offlinePage();
  }
  if (SERVER_DOWN.has(response.status)) return (await keptPage(request)) || response;
  return observe(event, response);
}

// The response goes to the page; a copy of its body only if it is to be kept
// (a download the worker leaves alone is not read twice).
function observe(event, response) {
  const copy = response.headers.get(KEEP) ? response.clone() : null;
  event.waitUntil(remember(event.request, response, copy));
  return response;
}

// What the server said of a page (offline.py): whose it is, whether to keep it.
async function remember(request, response, copy) {
  const signIn = response.headers.get(SIGN_IN);
  if (response.status === 403 || signIn === "none") return forget();
  if (!signIn) return;
  const name = PAGES + signIn;
  await forget(name);
  const cache = await caches.open(name);
  if (response.status === 404 || response.status === 410) {
    await cache.delete(request.url, {ignoreVary: true});
    return;
  }
  if (!copy || response.redirected) return;
  const headers = new Headers(response.headers);
  headers.delete("Content-Encoding");  // the body is kept as read, decoded
  headers.delete("Content-Length");
  headers.set(SEEN, String(Date.now()));
  await cache.put(request.url, new Response(await copy.blob(), {status: 200, headers}));
  const keys = await cache.keys();  // the oldest first
  await Promise.all(keys.slice(0, -MAX_PAGES).map((key) => cache.delete(key)));
}

// Delete every sign-in's kept pages but those of the cache named ``keep``.
async function forget(keep) {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PAGES) && name !== keep)
    .map((name) => caches.delete(name)));
}

async function pages() {
  const name = (await caches.keys()).find((each) => each.startsWith(PAGES));
  return name ? caches.open(name) : null;
}

async function keptPage(request) {
  const cache = await pages();
  if (!cache) return null;
  if (new URL(request.url).pathname === SHORTCUT) return lastScoreboard(cache);
  const kept = await cache.match(request.url, {ignoreVary: true});
  return kept ? marked(kept) : null;
}

async function lastScoreboard(cache) {
  for (const key of (await cache.keys()).reverse()) {
    const kept = await cache.match(key, {ignoreVary: true});
    if (kept && kept.headers.get(KEEP) === "scoreboard") return Response.redirect(key.url, 302);
  }
  return null;
}

// The kept page, with a bar at the top of its content saying since when.
async function marked(kept) {
  const when = clock(Number(kept.headers.get(SEEN)));
  const bar = `<p class="offline-bar" role="status" data-seen="${when}">` +
    `<span class="offline-bar-text">Offline, as of ${when}</span> ` +
    `<a class="offline-bar-again" href="">Try again</a></p>`;
  const seen = Math.floor(Number(kept.headers.get(SEEN)) / 1000);
  const text = (await kept.text())
    .replace(KEY, (field, start, made) => start + newKey(made || seen));
  const top = /<main\b[^>]*>/.test(text) ? /<main\b[^>]*>/ : /<body\b[^>]*>/;
  const html = text.replace(top, (tag) => tag + bar);
  return new Response(html, {status: 200, headers: kept.headers});
}

// A form shown again is a new change: its key (web/once.py) is made anew, or
// a round entered on it would be taken for the one entered on it before. It
// keeps the time the server made the form at (a key from before keys told
// it: the time the page was kept), so a form too old is refused as such.
const KEY = /(<input type="hidden" name="key" value=")(?:([0-9]+)\.)?[^"]*/g;

function newKey(made) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return made + "." + btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-")
    .replace(/\//g, "_").replace(/=+$/, "");
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
  "Dec"];

// "21:04" on the phone's clock; "Tue 3 Mar, 21:04" on another day.
function clock(ms) {
  const seen = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  const time = `${two(seen.getHours())}:${two(seen.getMinutes())}`;
  if (seen.toDateString() === new Date().toDateString()) return time;
  return `${DAYS[seen.getDay()]} ${seen.getDate()} ${MONTHS[seen.getMonth()]}, ${time}`;
}

async function offlinePage() {
  return (await caches.match(OFFLINE, {cacheName: STATIC})) ||
    new Response("Offline", {status: 503, headers: {"Content-Type": "text/plain"}});
}

// A form sent: with no network, the page stays as it is (a 204 leaves it,
// and what was typed, in place) and offline.js says that nothing was sent.
async function send(request) {
  try {
    return await fetch(request);
  } catch (error) {
    for (const client of await self.clients.matchAll({type: "window"})) {
      client.postMessage("not-sent");
    }
    return new Response(null, {status: 204});
  }
}
