// The service worker, served at /sw.js by web/offline.py (whose docstring says
// what the server tells it) and registered by offline.js as /sw.js?v=<version>.
// What it needs from the server comes as data (/sw.json): the static files'
// current names, the offline page and the bar's words in each language, the
// addresses and headers it watches. Static files are cached ahead, under this
// deploy's names; the group pages this phone opens are kept as it sees them
// (network first), in the language each came in, and shown from the cache
// when the network is gone, in the phone's language, marked "Offline, as of
// 21:04"; a page never seen in it gets the offline page in it.
"use strict";

/** @type {ServiceWorkerGlobalScope} */
const worker = /** @type {any} */ (self);

const VERSION = new URL(worker.location.href).searchParams.get("v") || "unversioned";
const STATIC = "static-" + VERSION;
// At the root: the worker's scope (sw-sync.js, which runs this, is served under static/).
const DATA = new URL("sw.json?v=" + encodeURIComponent(VERSION), worker.registration.scope).href;
const SEEN = "Scorekeeper-Seen-At";  // when this phone kept the page (ms)
const MADE_FROM = "Scorekeeper-Made-From";  // a round form's address as fetched
const PAGES = "pages-";  // + sign-in + ":" + language: one sign-in's pages at a time
const LANGUAGE = "phone-language";  // the phone's language, as last seen or switched offline
const LANGUAGE_KEY = new URL("phone-language", worker.registration.scope).href;
const MAX_PAGES = 100;
const FINGERPRINT = /^(.+)\.[0-9a-f]{8}(\.[^./]+)?$/;  // web/static_files.py
const SERVER_DOWN = new Set([502, 503, 504]);

// {files: {plain URL: fingerprinted URL}, languages: {tag: {offline (URL),
// asOf, tryAgain (the bar's words), clock (its time's locale)}}, shortcut,
// signOut (URLs), signInHeader, keepHeader, formHeader, languageHeader}: fetched
// as the worker installs, kept with the files, and read once each time the
// browser starts the worker.
let told = null;

function server() {
  told ||= caches.match(DATA, {cacheName: STATIC})
    .then((kept) => kept || fetch(DATA))
    .then((response) => response.json())
    .catch((error) => {
      told = null;
      throw error;
    });
  return told;
}

worker.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const response = await fetch(DATA, {cache: "no-store"});
    if (!response.ok) throw new Error(`${DATA}: ${response.status}`);
    const data = await response.clone().json();
    const cache = await caches.open(STATIC);
    await cache.addAll([...Object.values(data.files),
      ...Object.values(data.languages).map((language) => language.offline)]);
    await cache.put(DATA, response);
    await worker.skipWaiting();
  })());
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("static-") && name !== STATIC)
      .map((name) => caches.delete(name))))
    .then(() => worker.clients.claim())
    .then(keepOpenPages));
});

// A page that loaded while the worker was starting asks to be controlled; a
// page switched language offline (language.js) says so, and is answered.
worker.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(worker.clients.claim());
  else if (event.data?.[LANGUAGE]) {
    event.waitUntil(setLanguage(event.data[LANGUAGE]).then(() => event.ports[0]?.postMessage(true)));
  }
});

// The phone's language

let language = null;  // the phone's language (a tag), once read

async function phoneLanguage(data) {
  if (!language) {
    const kept = await caches.match(LANGUAGE_KEY, {cacheName: LANGUAGE});
    language = kept ? await kept.text() : null;
  }
  return language in data.languages ? language : Object.keys(data.languages)[0];
}

async function setLanguage(tag) {
  if (tag === language) return;
  language = tag;
  await (await caches.open(LANGUAGE)).put(LANGUAGE_KEY, new Response(tag));
}

// The pages open when the worker starts were loaded before it: fetched again
// to be kept, so that the page a phone first installs from works offline too.
async function keepOpenPages() {
  const data = await server();
  for (const client of await worker.clients.matchAll({type: "window"})) {
    const request = new Request(client.url);
    try {
      const response = await fetch(request);
      await remember(data, request, response, response);
    } catch (error) {
      // Offline already: nothing to keep.
    }
  }
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== worker.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(sendForm(request));
  } else if (request.method !== "GET" || request.headers.get("Accept") === "text/event-stream") {
    // Other POSTs and the live pages' streams go their own way.
  } else {
    event.respondWith(answer(event));
  }
});

async function answer(event) {
  const request = event.request;
  let data;
  try {
    data = await server();
  } catch (error) {
    return fetch(request);  // told nothing: the network alone
  }
  const current = currentFile(data, new URL(request.url));
  if (current) return staticFile(request, current);
  if (request.mode === "navigate") return page(data, event);
  // A script fetching a page (live.js brings it up to date): kept as seen.
  return fetch(request).then((response) => observe(data, event, response));
}

// Static files

function currentFile(data, url) {
  if (data.files[url.pathname]) return data.files[url.pathname];
  const parts = FINGERPRINT.exec(url.pathname);
  return parts ? data.files[parts[1] + (parts[2] || "")] : undefined;
}

async function staticFile(request, current) {
  return (await caches.match(current, {cacheName: STATIC})) || fetch(request);
}

// Pages

async function page(data, event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return (await keptPage(data, request)) || offlinePage(data);
  }
  if (SERVER_DOWN.has(response.status)) return (await keptPage(data, request)) || response;
  return observe(data, event, response);
}

// The response goes to the page; a copy of its body only if it is to be kept
// (a download the worker leaves alone is not read twice).
function observe(data, event, response) {
  const copy = response.headers.get(data.keepHeader) ? response.clone() : null;
  event.waitUntil(remember(data, event.request, response, copy));
  return response;
}

// What the server said of a page (offline.py): whose it is, whether to keep
// it, and its language, which is the phone's (locales.py).
async function remember(data, request, response, copy) {
  const tag = response.headers.get(data.languageHeader);
  if (tag in data.languages) await setLanguage(tag);
  const signIn = response.headers.get(data.signInHeader);
  if (response.status === 403 || signIn === "none") return forget();
  if (!signIn) return;
  await forget(signIn);
  if (response.status === 404 || response.status === 410) {
    for (const name of Object.keys(data.languages)) {
      await (await caches.open(pagesOf(signIn, name))).delete(request.url, {ignoreVary: true});
    }
    return;
  }
  if (!copy || response.redirected || !(tag in data.languages)) return;
  const cache = await caches.open(pagesOf(signIn, tag));
  await put(cache, request.url, copy);
  const form = response.headers.get(data.formHeader);
  if (form) await keepForm(data, cache, signIn, tag, new URL(form, request.url));
  const keys = await cache.keys();  // the oldest first
  await Promise.all(keys.slice(0, -MAX_PAGES).map((key) => cache.delete(key)));
}

// A scoreboard names the form of the round it shows next, as it stands
// (offline.py): kept under the form's own address, so that offline "Enter
// round 4" opens round 4's form, with the hands empty. Fetched once a version.
async function keepForm(data, cache, signIn, tag, url) {
  const under = url.origin + url.pathname;
  const kept = await cache.match(under, {ignoreVary: true});
  if (kept && kept.headers.get(MADE_FROM) === url.href) return;
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    return;  // offline already: the copy kept stays
  }
  if (!response.ok || response.redirected || !response.headers.get(data.keepHeader) ||
      response.headers.get(data.signInHeader) !== signIn ||
      response.headers.get(data.languageHeader) !== tag) return;
  await put(cache, under, response, url.href);
}

// Keeps ``response`` under ``url``, with when it was seen (and, for a round
// form, the address it was fetched from).
async function put(cache, url, response, from = null) {
  const headers = new Headers(response.headers);
  headers.delete("Content-Encoding");  // the body is kept as read, decoded
  headers.delete("Content-Length");
  headers.set(SEEN, String(Date.now()));
  if (from) headers.set(MADE_FROM, from);
  await cache.put(url, new Response(await response.blob(), {status: 200, headers}));
}

const pagesOf = (signIn, tag) => `${PAGES}${signIn}:${tag}`;

// Delete every sign-in's kept pages but those of the sign-in ``keep``.
async function forget(keep) {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PAGES) &&
    !(keep && name.startsWith(pagesOf(keep, ""))))
    .map((name) => caches.delete(name)));
}

// The pages kept in the phone's language (of the one sign-in kept).
async function pages(tag) {
  const name = (await caches.keys()).find((each) => each.startsWith(PAGES) &&
    each.endsWith(`:${tag}`));
  return name ? caches.open(name) : null;
}

async function keptPage(data, request) {
  const tag = await phoneLanguage(data);
  const cache = await pages(tag);
  if (!cache) return null;
  if (new URL(request.url).pathname === data.shortcut) return lastScoreboard(data, cache);
  const kept = await cache.match(request.url, {ignoreVary: true});
  return kept ? marked(kept, data.languages[tag]) : null;
}

async function lastScoreboard(data, cache) {
  for (const key of (await cache.keys()).reverse()) {
    const kept = await cache.match(key, {ignoreVary: true});
    if (kept && kept.headers.get(data.keepHeader) === "scoreboard") {
      return Response.redirect(key.url, 302);
    }
  }
  return null;
}

// The kept page, with a bar at the top of its content saying since when, in
// the page's ``words``; it tells offline.js that the page is a copy (whose
// forms then get new keys) and the time it was kept.
async function marked(kept, words) {
  const seen = Number(kept.headers.get(SEEN));
  const when = clock(seen, words.clock);
  const bar = `<p class="offline-bar" role="status" data-seen="${when}" ` +
    `data-kept="${Math.floor(seen / 1000)}"><span class="offline-bar-text">` +
    `${words.asOf.replace("%(time)s", when)}</span> <a class="offline-bar-again" href="">` +
    `${words.tryAgain}</a></p>`;
  const text = await kept.text();
  const top = /<main\b[^>]*>/.test(text) ? /<main\b[^>]*>/ : /<body\b[^>]*>/;
  const html = text.replace(top, (tag) => tag + bar);
  return new Response(html, {status: 200, headers: kept.headers});
}

// "21:04" on the phone's clock; "Tue 3 Mar, 21:04" on another day (in
// English: the ``locale``'s way in another language).
function clock(ms, locale) {
  const seen = new Date(ms);
  /** @type {Intl.DateTimeFormatOptions} */
  const time = {hour: "2-digit", minute: "2-digit", hourCycle: "h23"};
  const today = seen.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(locale,
    today ? time : {weekday: "short", day: "numeric", month: "short", ...time}).format(seen);
}

async function offlinePage(data) {
  const offline = data.languages[await phoneLanguage(data)].offline;
  return (await caches.match(offline, {cacheName: STATIC})) || Response.error();
}

// A form sent: with no network, the page stays as it is (a 204 leaves it,
// and what was typed, in place) and offline.js says that nothing was sent.
// Signing out deletes the kept pages first, whether or not it then goes.
async function sendForm(request) {
  const data = await server().catch(() => null);
  if (data && new URL(request.url).pathname === data.signOut) await forget();
  try {
    return await fetch(request);
  } catch (error) {
    for (const client of await worker.clients.matchAll({type: "window"})) {
      client.postMessage("not-sent");
    }
    return new Response(null, {status: 204});
  }
}
