// Rounds saved with no network: kept on this phone (IndexedDB) and sent by
// themselves once it is back, in the order they were entered, each with its
// form's key (web/once.py), so a round sent twice is saved once. A round the
// server refuses comes back as it would have online: its form, as typed, and
// why. offline.js loads this module when a round waits or one is saved offline.

const DB = "scorekeeper";
const STORE = "rounds";
const WAITING = "scorekeeper-waiting";  // localStorage: how many (offline.js reads it)
const SENT = "scorekeeper-sent";  // sessionStorage: rounds sent, said after the reload
const REFUSED = "scorekeeper-refused";  // sessionStorage: the round whose form comes back
const RETRY_MS = [2_000, 4_000, 8_000, 15_000, 30_000];  // after each failure in a row

// An item: {id, board (the session's scoreboard path), url (its round form),
// number, version (the session's, as the round is sent), fields ([name, value]
// pairs of the form as sent), at (ms), refused}.

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, {keyPath: "id", autoIncrement: true});
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact(mode, work) {
  const db = await database();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

const waiting = () => transact("readonly", (store) => store.getAll());  // by id: in order

async function counted(change) {
  await transact("readwrite", change);
  localStorage.setItem(WAITING, String((await waiting()).length));
}

const keep = (item) => counted((store) => store.put(item));
const drop = (id) => counted((store) => store.delete(id));

const main = document.getElementById("main");
const board = (url) => new URL(url, location.href).pathname.replace(/\/rounds\/new$/, "");
const ofThisSession = (item) => location.pathname.startsWith(item.board);
const clock = (ms) => new Date(ms).toTimeString().slice(0, 5);

function make(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

// Signing out (signout.js): what this phone keeps of the group goes, the
// pages the worker kept (its caches "pages-…", sw.js) and the rounds kept
// here. (Another tab holding the database open delays its deletion until it
// lets go: it is asked for already.)
export async function forget() {
  if (self.caches) {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("pages-"))
      .map((name) => caches.delete(name)));
  }
  localStorage.removeItem(WAITING);
  sessionStorage.removeItem(SENT);
  sessionStorage.removeItem(REFUSED);
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DB);
    request.onsuccess = request.onerror = request.onblocked = resolve;
  });
}

// Saving

// The round form's Save, with no network or behind rounds still waiting: the
// round joins the queue, and the phone goes to the scoreboard, which says so.
export async function save(form, submitter) {
  const fields = [...new FormData(form, submitter)].filter(([, value]) => typeof value === "string");
  const value = (name) => form.elements[name] && form.elements[name].value;
  const item = {board: board(form.action), url: form.action, number: Number(value("number")),
                version: Number(value("version")), fields, at: Date.now(), refused: false};
  const key = (fields) => (fields.find(([name]) => name === "key") || [])[1];
  const twice = (await waiting()).find((kept) => key(kept.fields) === key(fields));
  const again = Number(form.dataset.queued) || (twice && twice.id);
  if (again) item.id = again;  // a refused round put right, or Save tapped twice
  await keep(item);
  if (navigator.onLine && await send({saving: true})) return;
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    location.assign(item.board);  // the worker shows it as last seen
  } else {
    form.before(say(`Round ${item.number} is kept on this phone. Keep this page open: ` +
                    "it is sent when the network is back."));
  }
}

// Sending

let sending = false;
let retry = null;
let failures = 0;

// Sends what waits, in order; true if it went to a round's page (saving).
async function send({saving = false, only = null} = {}) {
  if (sending) return false;
  sending = true;
  clearTimeout(retry);
  const sent = [];
  let later = false;
  let shown = false;
  try {
    const stopped = new Set();  // sessions whose next round can't go yet
    const tokens = {};
    for (const item of await waiting()) {
      if (stopped.has(item.board) || (item.refused && item.id !== only)) {
        stopped.add(item.board);
        continue;
      }
      const answer = await sendOne(item, tokens);
      if (answer === "saved") {
        sent.push(item);
        continue;
      }
      stopped.add(item.board);
      later ||= answer === "later";
      if (answer === "refused") {
        shown = true;
        return true;
      }
    }
  } finally {
    sending = false;
    failures = later ? failures + 1 : 0;
    // No network yet (navigator.onLine can say otherwise), or signed out.
    if (later) retry = setTimeout(() => send(), RETRY_MS[Math.min(failures, RETRY_MS.length) - 1]);
    if (sent.length && (shown || !saving)) record(sent);
    if (sent.length && !shown) done(sent, saving);
  }
  return shown || (saving && sent.length > 0);
}

async function sendOne(item, tokens) {
  let response;
  try {
    tokens[item.url] ||= await freshToken(item.url);
    const body = new URLSearchParams(item.fields);
    if (tokens[item.url]) body.set("csrf_token", tokens[item.url]);
    response = await fetch(item.url, {method: "POST", body, credentials: "same-origin"});
  } catch {
    return "later";
  }
  if (response.redirected && response.ok) {
    item.saved = response.url;
    await drop(item.id);
    return "saved";
  }
  if (response.status >= 500 || response.status === 403 || response.status === 429) {
    return "later";
  }
  // Refused: the form comes back as the server shows it, by sending it once
  // more (its key was not used) as the page itself.
  item.refused = true;
  await keep(item);
  sessionStorage.setItem(REFUSED, String(item.id));
  const form = make("form");
  form.method = "post";
  form.action = item.url;
  form.hidden = true;
  const body = new URLSearchParams(item.fields);
  if (tokens[item.url]) body.set("csrf_token", tokens[item.url]);
  for (const [name, value] of body) {
    const input = make("input");
    Object.assign(input, {type: "hidden", name, value});
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  return "refused";
}

// The form's token may have expired while the round waited (an hour): a new
// one from its page, which also says if the phone is still signed in to the
// round's group (403: signed out; 404: another group's session).
async function freshToken(url) {
  const page = await fetch(url, {credentials: "same-origin"});
  if (page.status === 403 || page.status === 404) throw new Error("not this sign-in's");
  const html = new DOMParser().parseFromString(await page.text(), "text/html");
  const field = html.querySelector("input[name=csrf_token]");
  return field ? field.value : null;
}

// Rounds sent, to be said on the page shown next.
function record(sent) {
  const said = JSON.parse(sessionStorage.getItem(SENT) || "[]");
  sessionStorage.setItem(SENT, JSON.stringify([...said, ...sent.map(
    (item) => ({number: item.number, url: item.saved, board: item.board}))]));
}

// Rounds sent: on their form's Save, the last one's result, as online; else
// the page is brought up to date (a form being typed is left alone) and says so.
function done(sent, saving) {
  if (saving) {
    location.assign(sent.at(-1).saved);
    return;
  }
  if (document.querySelector("form.round-form")) {
    showSent();
    waiting().then(showWaiting);
  } else {
    location.reload();
  }
}

// What is shown

function say(text, className = "notice") {
  const note = make("p", className, text);
  note.setAttribute("role", "status");
  return note;
}

function showSent() {
  const sent = JSON.parse(sessionStorage.getItem(SENT) || "[]").filter(ofThisSession);
  if (!sent.length) return;
  sessionStorage.setItem(SENT, JSON.stringify(
    JSON.parse(sessionStorage.getItem(SENT)).filter((item) => !ofThisSession(item))));
  for (const item of sent) {
    // Sent after another phone had saved the same round: its page says so.
    const before = new URL(item.url, location.href).searchParams.has("saved");
    const note = say(before ? `Round ${item.number}, kept on this phone, had been saved ` +
                              "from another phone: it counts once. "
      : `Round ${item.number}, kept on this phone, is sent and saved. `);
    const link = make("a", "", `See round ${item.number}`);
    link.href = item.url;
    note.append(link);
    main.prepend(note);
  }
}

// The rounds of this page's session that wait, at the top of its pages (the
// form of one refused says why itself).
async function showWaiting(items) {
  document.querySelector(".queue")?.remove();
  const form = document.querySelector("form.round-form[data-queued]");
  const mine = items.filter((item) => ofThisSession(item)
    && !(form && item.id === Number(form.dataset.queued)));
  if (!mine.length) return;
  const box = make("section", "notice queue");
  box.setAttribute("aria-label", "Kept on this phone");
  const list = make("ul");
  for (const item of mine) {
    const line = make("li", "", item.refused ? `Round ${item.number} was not saved`
      : `Round ${item.number}, waiting to be sent`);
    line.append(make("span", "queue-when", ` (entered ${clock(item.at)})`));
    if (item.refused) {
      const why = make("button", "button round-secondary", `See round ${item.number} and why`);
      why.type = "button";
      why.addEventListener("click", () => send({only: item.id}));
      line.append(why);
    }
    list.append(line);
  }
  box.append(list, make("p", "queue-checks", mine.some((item) => item.refused)
    ? "A round not saved stays on this phone until it is put right and saved, or " +
      "dropped; the rounds after it wait for it."
    : "Sent by itself when the network is back. The pad has counted the cards; the rest " +
      "is checked as it is sent (the hands' sets and runs, the points, and whether another " +
      "phone saved a round meanwhile). If something is wrong, its form comes back here " +
      "with what was typed."));
  // The scoreboard as last seen: its next round is the one after them.
  const last = mine.filter((item) => !item.refused).at(-1);
  for (const link of last ? main.querySelectorAll("a[href$='/rounds/new']") : []) {
    link.textContent = link.textContent.replace(/\d+/, (shown) => Math.max(shown, last.number + 1));
  }
  // Who deals next depends on the rounds that wait: the server says, once they are in.
  const next = last && main.querySelector(".board-next");
  const title = next && next.querySelector("h2");
  if (title && Number(title.textContent.replace(/\D/g, "")) <= last.number) {
    title.textContent = `Round ${last.number + 1}`;
    for (const line of next.querySelectorAll("p")) line.remove();
    next.append(make("p", "board-waits", `Who deals shows once round ${last.number} is sent.`));
  }
  const bar = main.querySelector(".offline-bar");
  if (bar) bar.after(box);
  else main.prepend(box);
}

const isResultOf = (item) => location.pathname.startsWith(item.board + "/rounds/")
  && /\/rounds\/\d+$/.test(location.pathname);

// A new round's form whose rounds before it wait on this phone: it is for the
// round after them (the page, kept offline, was made for the first). Not after
// one refused: that may yet be dropped.
function follow(form, items) {
  const number = form.elements.number;
  const version = form.elements.version;
  const last = items.filter((item) => item.board === board(form.action) && !item.refused).at(-1);
  if (!last || !number || last.version < Number(version.value)) return;
  const next = last.number + 1;
  number.value = next;
  version.value = last.version + 1;
  document.title = document.title.replace(/\d+/, next);
  document.querySelector("h1").textContent = `Round ${next}`;
  const order = document.querySelector(".round-order");
  if (order) order.textContent = `Round ${last.number} waits on this phone: who deals shows once it is sent.`;
  for (const button of form.querySelectorAll("button[type=submit]:not([name])")) {
    button.textContent = button.textContent.replace(/\d+/, next);
  }
}

export async function start() {
  const form = document.querySelector("form.round-form[data-queue]");
  const refused = Number(sessionStorage.getItem(REFUSED));  // 0: none (ids start at 1)
  sessionStorage.removeItem(REFUSED);
  let items = await waiting();
  const resent = items.find((item) => item.id === refused);
  if (resent && !form && isResultOf(resent)) {
    // Sent again as the page itself, the round was saved this time: this is
    // its result. Those after it go now, as after a Save.
    await drop(resent.id);
    if (navigator.onLine && await send({saving: true})) return;
    items = await waiting();
  }
  localStorage.setItem(WAITING, String(items.length));
  showSent();
  if (form && resent) {
    form.dataset.queued = refused;  // this form is that round's, refused
    const dropping = document.getElementById("round-drop");  // "Same game: drop mine"
    dropping?.addEventListener("submit", (event) => {
      if (dropping.dataset.dropped) return;  // off the phone: now the server's part
      event.preventDefault();
      drop(refused).finally(() => {
        dropping.dataset.dropped = "true";
        dropping.requestSubmit(event.submitter);
      });
    });
  } else if (form) {
    follow(form, items);
  }
  await showWaiting(items);
  if (items.some((item) => !item.refused)) watch();
}

// Sends once the network is back: told by the "online" event, which is not
// always fired, so also by looking now and then, and as the phone is woken.
function watch() {
  let online = navigator.onLine;
  const look = () => {
    if (navigator.onLine && !online) {
      failures = 0;
      send();
    }
    online = navigator.onLine;
  };
  window.addEventListener("online", look);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && navigator.onLine) send();
  });
  setInterval(look, 2000);
  if (online) send();
}
