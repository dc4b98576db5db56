// Changes made with no network, rounds and payments (core/changes.js): kept
// on this phone (core/store.js) and sent by themselves once it is back
// (core/sending.js). One the server refuses comes back as it would have
// online: its page (a round's form as typed, a payment's page), and why.
// offline.js loads this module when a change waits or one is made offline.
// What rounds do to a session's pages: queue-rounds.js; what a payment says:
// kept-words.js.

import {isRound, kept, news, under, withNews} from "./core/changes.js";
import {REFUSED, SENT, WAITING} from "./core/names.js";
import {CHANGES_SENT, SEND_CHANGES, sendKept} from "./core/outbox.js";
import {body, field, retryDelay} from "./core/sending.js";
import * as store from "./core/store.js";
import {find, make} from "./dom.js";
import {paymentRefused, paymentSent, waitingLine} from "./kept-words.js";
import {boardAfter, follow, roundSent} from "./queue-rounds.js";
import {gettext} from "./strings.js";

const main = find("#main");
// The pages a change is shown on are under its queue's path (a session's
// pages under its scoreboard's, for its rounds).
const ofThisSession = (item) => under(location.pathname, item.board);
const clock = (ms) => new Date(ms).toTimeString().slice(0, 5);
let refusedHere = 0;  // the round refused whose form this page is (ids start at 1)

async function counted(change) {
  await change;
  localStorage.setItem(WAITING, String((await store.waiting()).length));
}

const keep = (item) => counted(store.keep(item));
const drop = (id) => counted(store.drop(id));

// Saving

// A form with data-queue sent with no network, or behind changes still
// waiting: it joins the queue. A round's Save goes on to the scoreboard,
// which says so; a payment's page says so itself.
export async function save(form, submitter) {
  const fields = /** @type {[string, string][]} */ (
    [...new FormData(form, submitter)].filter(([, value]) => typeof value === "string"));
  const item = kept({url: form.action, queue: form.dataset.queue, fields, at: Date.now(),
                     payment: form.dataset.payment});
  const twice = (await store.waiting()).find((known) => field(known, "key") === field(item, "key"));
  const again = refusedHere || twice?.id;
  if (again) item.id = again;  // a refused round put right, or a form sent twice
  await keep(item);
  if (navigator.onLine && await send({saving: true})) return;
  // Not sent from here: the worker sends it once the network is back. Asked
  // for only now, as a sync fired at once (online) would take the round from
  // this page's sending, which alone goes on to its result.
  backgroundSync()?.then((/** @type {any} */ registration) => registration.sync.register(SEND_CHANGES))
    .catch(() => {});  // the page sends it, as where there is none
  if (!isRound(item)) {
    // This page stays, says so, and is told if the worker sends it (a
    // listener added once however often).
    navigator.serviceWorker?.addEventListener("message", sentByWorker);
    await showWaiting(await store.waiting());
    find(".queue").scrollIntoView({block: "nearest"});
    watch();
  } else if (navigator.serviceWorker?.controller) {
    location.assign(item.board);  // the worker shows it as last seen
  } else {
    form.before(say(gettext("Round %(number)s is kept on this phone. Keep this page open: it is sent when the network is back.", {number: item.number})));
  }
}

// Where the browser has Background Sync, the worker (sw-sync.js) sends the
// rounds kept by itself once the network is back, the app open or not: its
// registration; elsewhere null, and the pages send them (watch()).
const backgroundSync = () => "SyncManager" in window && navigator.serviceWorker?.controller
  ? navigator.serviceWorker.ready : null;

// Sending

let sending = false;
let showNext = null;  // the id of a round refused, to show once the sending ends
let retry = null;
let failures = 0;

// Sends what waits, in order; true if it went to a round's page (saving).
async function send({saving = false, only = null} = {}) {
  if (sending) {
    showNext = only ?? showNext;  // a round the worker had refused meanwhile: next
    return false;
  }
  sending = true;
  clearTimeout(retry);
  const sent = [];
  let later = false;
  let shown = false;
  try {
    const result = await sendKept({only, sent, refused: showRefused});
    later = result.later;
    shown = Boolean(result.refused);
    await counted(Promise.resolve());
  } finally {
    sending = false;
    failures = later ? failures + 1 : 0;
    // No network yet (navigator.onLine can say otherwise), or signed out.
    if (later) retry = setTimeout(() => send(), retryDelay(failures));
    if (sent.length && (shown || !saving)) record(sent.map(news));
    if (sent.length && !shown) done(sent, saving);
    if (showNext && !shown) send({only: showNext});
    showNext = null;
  }
  return shown || (saving && sent.length > 0);
}

// Refused: the form comes back as the server shows it, by sending it once
// more (its key was not used) as the page itself.
function showRefused(item, token) {
  sessionStorage.setItem(REFUSED, String(item.id));
  const form = make("form");
  Object.assign(form, {method: "post", action: item.url, hidden: true});
  for (const [name, value] of body(item, token)) {
    form.append(Object.assign(make("input"), {type: "hidden", name, value}));
  }
  document.body.append(form);
  form.submit();
}

const said = () => JSON.parse(sessionStorage.getItem(SENT) || "[]");
// Changes sent (store.js's Sent), to be said on the page shown next.
function record(sent) {
  const before = said();  // the worker may have sent one too: said once
  sessionStorage.setItem(SENT, JSON.stringify(withNews(before, sent)));
}

// The worker sent rounds by itself (sw-sync.js): as if this page had (its
// news for the next page taken: told here). One refused comes back as its
// form, from here (the worker has no page to show).
async function sentByWorker(event) {
  if (!event.data?.[CHANGES_SENT]) return;
  const {sent, refused} = event.data;
  await store.takeSent();
  if (sent.length) record(sent.map(news));
  if (refused) {
    send({only: refused});
  } else if (sent.length) {
    counted(Promise.resolve()).then(() => done(sent, false));
  }
}

// Rounds sent: on their form's Save, the last one's result, as online; else
// the page is brought up to date (a form being typed is left alone) and says so.
function done(sent, saving) {
  if (saving) {
    location.assign(sent.at(-1).saved);
  } else if (document.querySelector("form.round-form")) {
    showSent();
    store.waiting().then(showWaiting);
  } else {
    location.reload();
  }
}

// What is shown

function say(text) {
  const note = make("p", "notice", text);
  note.setAttribute("role", "status");
  return note;
}

function showSent() {
  const sent = said().filter(ofThisSession);
  if (!sent.length) return;
  sessionStorage.setItem(SENT, JSON.stringify(said().filter((item) => !ofThisSession(item))));
  for (const item of sent) {
    main.prepend(isRound(item) ? roundSent(item, say) : say(paymentSent(item)));
  }
}

// The rounds of this page's session that wait, at the top of its pages (the
// form of one refused says why itself).
async function showWaiting(items) {
  document.querySelector(".queue")?.remove();
  const mine = items.filter((item) => ofThisSession(item) && item.id !== refusedHere);
  if (!mine.length) return;
  const box = make("section", "notice queue");
  box.setAttribute("aria-label", gettext("Kept on this phone"));
  const list = make("ul");
  for (const item of mine) {
    const number = item.number;
    const line = make("li", "", waitingLine(item));
    // Translators: after "Round 3, waiting to be sent": when it was entered, "(entered 21:04)".
    line.append(make("span", "queue-when", " " + gettext("(entered %(time)s)", {time: clock(item.at)})));
    if (item.refused) {
      const why = make("button", "button round-secondary", isRound(item)
        ? gettext("See round %(number)s and why", {number}) : gettext("See why"));
      why.type = "button";
      why.addEventListener("click", () => send({only: item.id}));
      line.append(why);
    }
    list.append(line);
  }
  const rounds = mine.filter(isRound);
  box.append(list, make("p", "queue-checks", rounds.some((item) => item.refused)
    ? gettext("A round not saved stays on this phone until it is put right and saved, or dropped; the rounds after it wait for it.")
    : (backgroundSync() ? gettext("Will be sent when the network is back, even if you close the app.")
      : gettext("Sent when the network is back while the app is open: if you close it, open the app when the network is back.")) + " " +
      (rounds.length ? gettext("The pad has counted the cards; the rest is checked as it is sent (the hands' sets and runs, the points, and whether another phone saved a round meanwhile). If something is wrong, its form comes back here with what was typed.")
        : gettext("It is checked as it is sent: if another phone changed the same payment meanwhile, this page comes back saying why."))));
  boardAfter(rounds, main);
  const bar = main.querySelector(".offline-bar");
  if (bar) bar.after(box);
  else main.prepend(box);
}

export async function start() {
  // First: the worker's news of changes sent, taken below, may come as it writes it.
  navigator.serviceWorker?.addEventListener("message", sentByWorker);
  /** @type {HTMLFormElement} */
  const form = document.querySelector("form.round-form[data-queue]");
  const refused = Number(sessionStorage.getItem(REFUSED));  // 0: none
  sessionStorage.removeItem(REFUSED);
  let items = await store.waiting();
  const resent = items.find((item) => item.id === refused);
  if (resent && !isRound(resent)) {
    // A payment sent again as the page itself: this page is the server's
    // answer. Applied this time, it went on to the payment's page, as it is
    // now; else it is its form's address, saying why (.sessions-alert; a key
    // too old, a page of its own).
    await drop(resent.id);
    items = await store.waiting();
    if (location.pathname === resent.board) {
      record([news({...resent, saved: location.pathname})]);
    } else {
      const note = say(paymentRefused(resent));
      const why = main.querySelector(".sessions-alert");
      if (why) why.before(note);
      else main.prepend(note);
    }
  } else if (resent && !form && ofThisSession(resent) && document.querySelector("[data-round-result]")) {
    // Sent again as the page itself, the round was saved this time: this is
    // its result. Those after it go now, as after a Save.
    await drop(resent.id);
    if (navigator.onLine && await send({saving: true})) return;
    items = await store.waiting();
  }
  localStorage.setItem(WAITING, String(items.length));
  record(await store.takeSent());  // rounds the worker sent with no page open
  showSent();
  if (form && resent) {
    refusedHere = refused;  // this form is that round's, refused
    /** @type {HTMLFormElement} */
    const dropping = document.querySelector("#round-drop");  // "Same game: drop mine"
    let dropped = false;  // off the phone: now the server's part
    dropping?.addEventListener("submit", (event) => {
      if (dropped) return;
      event.preventDefault();
      drop(refused).finally(() => {
        dropped = true;
        dropping.requestSubmit(event.submitter);
      });
    });
  } else if (form) {
    follow(form, items);
  }
  await showWaiting(items);
  // A round the worker had refused with no page to tell (or before this one
  // listened) goes again from here, to come back as its form.
  if (items.some((item) => !item.refused || item.told === false)) watch();
}

// Sends once the network is back: told by the "online" event, which is not
// always fired, so also by looking now and then, and as the phone is woken.
let watching = false;

function watch() {
  if (watching) return;
  watching = true;
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
