// A round filled in together (README.md): a hand typed here is never
// overwritten; it asks which to keep. A hand goes as it is typed, and is kept
// on the phone until the server has it; while it is typed, it is not in, and
// the other phones say where it is being typed.

import {written} from "./core/cards.js";
import {debounce, forgetLater, keep, keptHands, keptName, reads} from "./core/hands.js";
import {keyTime, newKey} from "./core/keys.js";
import {find, make, on, tell} from "./dom.js";
import {gettext} from "./strings.js";

const QUIET = 800;  // ms without a key typed before a typed hand goes

const box = find("#together");
/** @type {HTMLFormElement} */
const form = find("form.round-form");
const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
const held = "held" in box.dataset;  // another phone saved first: only the strip follows
const SESSION = Number(form.dataset.session);
const OWN = Number(form.dataset.own) || null;  // the player whose phone this is
const confirming = Boolean(find("button[name=confirmed]", form));
const STATE = box.dataset.state;
const LABELS = JSON.parse(form.dataset.outcomes);  // the outcomes' words (the server's)
// The strip's marks, and what each says to a screen reader after the player's name.
const MARKS = {
  // Translators: the strip of who is in: "Ann ✓ in" (her hand is entered).
  done: ["✓", gettext("in")],
  // Translators: the strip of who is in: "Ann ✎ being typed" (on a phone, now).
  typing: ["✎", gettext("being typed")],
  // Translators: the strip of who is in: "Ann ! to check" (her hand has a problem).
  check: ["!", gettext("to check")],
  // Translators: the strip of who is in: "Ann … not yet" (no hand entered).
  waiting: ["…", gettext("not yet")],
};
// "Ann, Ben and Cy", in the page's language.
const list = (names) => new Intl.ListFormat(document.documentElement.lang || "en").format(names);
const token = field("csrf_token").value;
const time = keyTime(field("key").value);
const draftField = field("draft");
const strip = find(".together-strip", box);
const note = find("#together-note");
const clearing = find("#together-clear");
const pad = document.getElementById("card-pad");  // cards.js: data-player, the hand it is on
let number = Number(field("number").value);
let known = null;  // the latest state
let asking = false;
let askAgain = false;
let lapse;  // asks again as a hand being typed on a phone gone quiet counts as sent

const rows = {};
for (const section of form.querySelectorAll(".round-player")) {
  const says = make("div", "together-row");
  const id = Number(/** @type {HTMLElement} */ (section).dataset.player);
  says.setAttribute("aria-live", "polite");
  find(".round-player-head", section).after(says);
  section.querySelector(".together-from")?.remove();  // the server's: said here afresh
  rows[id] = {
    id, says,
    radios: section.querySelectorAll(".round-outcomes input"),
    input: find(".round-cards input", section),
    base: 0,  // the version of the hand shown or sent
    shown: {outcome: "dead", cards: ""},
    theirs: null,  // another phone's hand, to choose
    mine: 0,  // the version saved from here
    key: null, keyed: null,  // the key of the hand last sent, and that hand
    loaded: null, restored: null,  // the hand as the page came, and as put back from the phone
    typed: false,  // the hand last saved went as it was typed
    typingHere: false,  // the server has its hand as still being typed on this phone
    sending: false, again: false, last: false,  // a send to follow, and whether as left
    later: null,
  };
  rows[id].later = debounce(() => send(rows[id], {typing: beingTyped(rows[id])}), QUIET);
}

const same = (a, b) => a.outcome === b.outcome && written(a.cards) === written(b.cards);
// "Dead, 5S 9H" (card notation as typed, in every language).
const described = (hand) => LABELS[hand.outcome] + (hand.cards ? ", " + hand.cards : "");
// The keyboard or the pad is on the row's hand: it goes as typed, not as left.
const beingTyped = (row) =>
  document.activeElement === row.input || pad?.dataset.player === String(row.id);
const editing = (row) => !same(typed(row), row.shown) || document.activeElement === row.input;

function typed(row) {
  const outcome = [...row.radios].find((radio) => radio.checked)?.value || "dead";
  return {outcome, cards: outcome === "hu" ? "" : row.input.value.trim()};
}

const button = (className, text) =>
  Object.assign(make("button", "button " + className, text), {type: "button"});
const say = (row, problem) => row.says.replaceChildren(make("p", "error", problem));

function seen(row, hand) {
  row.shown = {outcome: hand.outcome, cards: hand.cards};
  row.base = hand.version;
  row.theirs = null;
  remember(row);
}

// What is typed and not yet the server's stays on the phone (core/hands.js).
function remember(row) {
  const hand = typed(row);
  if (held || !SESSION) return;
  keep(sessionStorage, keptName(SESSION, number, row.id),
       same(hand, row.shown) ? null : {...hand, base: row.base});
}

// After a reload: the hands typed here that the server did not have.
function restore() {
  if (held || !SESSION) return;
  for (const [player, hand] of keptHands(sessionStorage, SESSION, number)) {
    const row = rows[player];
    if (!row) continue;
    row.base = hand.base;
    setHand(row, hand);
    row.restored = hand;
  }
}

// A hand put in the row's fields (cards.js redraws on "input").
function setHand(row, hand) {
  for (const radio of row.radios) radio.checked = radio.value === hand.outcome;
  row.input.value = hand.cards;
  row.input.dispatchEvent(new Event("input", {bubbles: true}));
}

// Another phone's hand (cards.js redraws on "input").
function put(row, hand) {
  row.typed = false;
  for (const radio of row.radios) radio.checked = radio.value === hand.outcome;
  row.input.value = hand.cards;
  seen(row, hand);
  row.input.dispatchEvent(new Event("input", {bubbles: true}));
}

function sayRow(row, player) {
  row.says.replaceChildren(...(player ? player.problems : []).map((problem) => make("p", "error", problem)));
  const hand = player && player.hand;
  if (row.theirs) {
    const choice = make("div", "together-ask");
    choice.append(make("p", "", gettext("%(phone)s entered: %(theirs)s. Yours: %(mine)s.", {
      phone: row.theirs.phone, theirs: described(row.theirs), mine: described(typed(row))})),
                  button("together-theirs", gettext("Use theirs")),
                  button("round-secondary together-mine", gettext("Keep mine")));
    row.says.append(choice);
  } else if (hand?.typing && !hand.typing.here) {
    row.says.append(make("p", "together-from together-typing",
                         // known.lapse: the server's words, in the page's language.
                         gettext("Being typed on %(phone)s…", {phone: hand.phone}) + " " + known.lapse));
  } else if (hand && hand.version !== row.mine) {
    // Translators: where and when a hand came in: "Entered on Ben's phone, 2 min ago".
    row.says.append(make("p", "together-from", gettext("Entered on %(place)s", {place: hand.from})));
  }
}

function sayStrip(state) {
  strip.replaceChildren();
  for (const player of state.players) {
    const how = player.done ? "done" : player.hand?.typing ? "typing" : player.hand ? "check" : "waiting";
    const [mark, said] = MARKS[how];
    const item = make("li", "together-" + how);
    const shown = make("span", "together-mark", mark);
    item.dataset.player = player.id;
    shown.setAttribute("aria-hidden", "true");
    item.append(make("bdi", "", player.name), shown, make("span", "round-vh", " " + said));
    strip.append(item);
  }
  note.replaceChildren();
  if (state.open && state.number > number) {  // saved elsewhere
    import("./round-saved.js").then((card) => card.show(number, state));
    return;
  }
  if (state.number !== number || !state.open) {
    const gone = make("p", "together-saved", !state.open ? gettext("This session has ended.")
      : gettext("The rounds were changed on another phone: this is round %(number)s now.",
                {number: state.number}) + " ");
    if (state.open) {
      const link = make("a", "", gettext("Enter round %(number)s", {number: state.number}));
      link.href = form.action;
      gone.append(link);
    }
    note.append(gone);
    return;
  }
  for (const player of state.players.filter((p) => p.hand?.typing && !p.hand.typing.here)) {
    note.append(make("p", "together-typing",
                     gettext("%(player)s's hand is being typed on %(phone)s…",
                             {player: player.name, phone: player.hand.phone})));
  }
  note.append(...state.problems.map((problem) => make("p", "error", problem)));
  if (state.complete && !held && !confirming) {
    note.append(make("p", "together-ready", gettext("Everyone is in: tap Save round %(number)s.", {number})),
                ...state.warnings.map((warning) => make("p", "round-warning", warning)));
  } else if (OWN && !held && !rows[OWN]?.theirs && state.players.some((p) => p.id === OWN && p.done)) {
    const waiting = state.players.filter((p) => !p.done);
    if (!waiting.length) return;
    note.append(make("p", "together-waiting-for",
                     gettext("Your hand is in: waiting for %(names)s",
                             {names: list(waiting.map((p) => p.name))})));
    // Not for a hand being typed on its own phone: it is coming.
    for (const player of waiting.filter((p) => !p.hand?.typing || p.hand.typing.here)) {
      const fill = button("round-secondary together-fill",
                          gettext("Fill in for %(name)s (no phone)", {name: player.name}));
      fill.dataset.player = player.id;
      note.append(fill);
    }
  }
}

function take(state) {
  // Answers cross on the way (a hand's send, another's, a state asked for):
  // one older than the state taken in would undo what that one said, e.g.
  // clear a hand just sent.
  if (known && (state.draft < known.draft || state.version < known.version)) return;
  const first = !known;
  known = state;
  box.dataset.draft = state.draft;  // the draft version taken in
  if (held) {
    sayStrip(state);
    return;
  }
  const open = state.number === number && state.open;
  if (first && open && !held && SESSION) forgetLater(sessionStorage, SESSION, number);
  const arrived = [];
  for (const player of state.players) {
    const row = rows[player.id];
    const hand = player.hand;
    if (!row) continue;
    if (open && hand && hand.version > row.base) {
      if (same(hand, typed(row))) seen(row, hand);
      else if (!editing(row)) {
        put(row, hand);
        arrived.push(row.id);
      } else row.theirs = hand;
    } else if (open && !hand && row.base) {  // cleared: what was typed since is kept
      (same(typed(row), row.shown) ? put : seen)(row, {outcome: "dead", cards: "", version: 0});
    }
    row.typingHere = Boolean(open && hand?.typing?.here);
    if (row.typingHere) row.typed = true;
    if (open) sayRow(row, player);
  }
  sayStrip(state);
  // "Clear this round's hands" while the round has some, from any phone.
  if (clearing) clearing.hidden = !(open && state.players.some((p) => p.hand));
  clearTimeout(lapse);
  const lapses = state.players.filter((p) => p.hand?.typing).map((p) => p.hand.typing.left);
  if (lapses.length) lapse = setTimeout(ask, (Math.min(...lapses) + 1) * 1000);
  tell(form, "together:in", {
    players: open ? state.players.filter((p) => p.done).map((p) => p.id) : [],
    unsent: Object.values(rows).filter((row) => row.theirs || !same(typed(row), row.shown))
      .map((row) => row.id),
    arrived,
  });
  const waiting = Object.values(rows).some((row) => row.theirs);
  if (open && draftField && !waiting) draftField.value = state.draft;
  if (first) sendAll();  // typed before the first state came
  // Typed here before a reload (sent as the page was put away, and that
  // request may land after this page's first state, even after this page
  // sent the hand itself): once neither the keyboard nor the pad is on it
  // (a hand come in takes it off the pad), it goes as left.
  else {
    for (const row of Object.values(rows)) if (row.typingHere && !beingTyped(row)) send(row);
  }
}

function sendAll(keepalive = false) {
  for (const row of Object.values(rows)) {
    send(row, {keepalive, typing: beingTyped(row)});
  }
}

async function ask() {
  if (asking) {
    askAgain = true;
    return;
  }
  asking = true;
  try {
    const response = await fetch(STATE, {credentials: "same-origin",
                                         headers: {Accept: "application/json"}});
    if (response.ok) take(await response.json());
  } catch {
    // no network: the next change asks again
  }
  asking = false;
  if (askAgain) {
    askAgain = false;
    ask();
  }
}

// Sends the row's hand: ``typing`` as it is typed (the round is not saved
// by it, web/drafts.py), else as its field is left (sent again if it last
// went as typed: the house may save the round with the last hand in).
async function send(row, {keepalive = false, typing = false} = {}) {
  if (held || !row || !known || known.number !== number || !known.open) return;
  row.later.cancel();
  const hand = typed(row);
  // A choice to make, or nothing new
  if (row.theirs || (same(hand, row.shown) && (typing || !row.typed))) return;
  if (row.sending) {
    row.again = true;
    row.last = row.last || !typing;
    return;
  }
  row.sending = true;
  // A new hand gets a new key; a hand sent again keeps its own.
  if (!row.keyed || !same(hand, row.keyed) || row.keyed.base !== row.base) {
    row.key = newKey(time);
    row.keyed = {...hand, base: row.base};
  }
  try {
    const response = await fetch(`${STATE}/${row.id}`, {
      method: "POST", credentials: "same-origin", keepalive,
      headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      body: JSON.stringify({...hand, base: row.base, number, key: row.key, typing}),
    });
    const body = await response.json();
    if (response.status === 200) {
      row.typed = typing;
      seen(row, body.hand);
      row.mine = body.hand.version;
      if (body.recorded) {
        window.location.assign(body.recorded.url);
        return;
      }
    } else if (body.hand) {
      row.theirs = body.hand;  // another phone's, saved since
    } else {
      say(row, body.error || gettext("This hand could not be sent."));
    }
    if (body.state) take(body.state);
    else if (response.ok) ask();  // a repeat's: no state
  } catch {
    say(row, gettext("Not sent. It is still typed here, and Save sends it too."));
  } finally {
    row.sending = false;
    if (row.again) {
      const typingStill = !row.last && beingTyped(row);
      row.again = row.last = false;
      send(row, {typing: typingStill});
    }
  }
}

const rowOf = (element) => rows[element.closest(".round-player")?.dataset.player];

// A hand is done: outcome chosen (Hu), cards typed, or the pad left it.
form.addEventListener("change", (event) => {
  const row = rowOf(event.target);
  if (row) remember(row);
  if (row && (event.target === row.input || typed(row).outcome === "hu" || row.input.value.trim())) {
    send(row);
  }
});
// A field left unchanged whose hand the server has as still being typed here
// (the pad put the thumb back in it after a reload): it goes, as left.
form.addEventListener("focusout", (event) => {
  const row = rowOf(event.target);
  if (!row || event.target !== row.input || !row.typingHere) return;
  row.typed = true;
  send(row);
});
// Typed (or changed on the pad): kept at once; a typed hand goes once the
// typing stops and it reads as cards.
form.addEventListener("input", (event) => {
  const row = rowOf(event.target);
  if (!row || event.target !== row.input) return;
  remember(row);
  if (event.isTrusted && reads(row.input.value)) row.later.later();
  else row.later.cancel();
});
on(form, "pad:left", ({player}) => send(rows[player]));
// "Fill in for Dan (no phone)": the pad opens on Dan's hand (cards.js).
box.addEventListener("click", (event) => {
  const fill = /** @type {HTMLElement} */ (event.target).closest(".together-fill");
  if (fill) tell(form, "pad:open", {player: Number(/** @type {HTMLElement} */ (fill).dataset.player)});
});
form.addEventListener("click", (event) => {
  const chosen = /** @type {Element} */ (event.target).closest(".together-theirs, .together-mine");
  const row = chosen && rowOf(chosen);
  if (!row || !row.theirs) return;
  if (chosen.classList.contains("together-theirs")) {
    put(row, row.theirs);
  } else {
    seen(row, row.theirs);
    send(row);
  }
  if (known) take(known);
});
// A phone put away may not come back: what is typed goes now.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") sendAll(true);
});
on(document, "live:change", ({draft, version}) => {
  if (!known || draft !== known.draft || version !== known.version) ask();
});
// The form moved on past rounds kept on the phone (queue.js): it starts
// empty, with the new round's own hands kept here if any; what was typed
// since the page came is for the round it is now, and kept as that round's.
// (The hands the page came with, or put back from the phone, were the round
// before's: those wait on the phone with it.)
on(document, "queue:follow", (next) => {
  for (const row of Object.values(rows)) {
    if (!held && SESSION) keep(sessionStorage, keptName(SESSION, number, row.id), null);
  }
  number = next.number;
  for (const row of Object.values(rows)) {
    const hand = typed(row);
    const before = same(hand, row.shown) || same(hand, row.loaded)
      || (row.restored && same(hand, row.restored));
    Object.assign(row, {base: 0, shown: {outcome: "dead", cards: ""}, theirs: null, mine: 0,
                        key: null, keyed: null, typed: false, restored: null});
    if (before) setHand(row, row.shown);
  }
  restore();
  for (const row of Object.values(rows)) remember(row);
});
for (const row of Object.values(rows)) row.loaded = typed(row);
restore();
ask();
