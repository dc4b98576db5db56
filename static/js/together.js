// A round filled in together: each phone sends its hands as they are done and
// fills in the others' as they come (live.js tells by a "live:change" event),
// never over a row typed in here: that row asks which to keep.

const box = document.getElementById("together");
const form = document.querySelector("form.round-form");
// Refused as another phone saved first: rows of that round; only the strip follows.
const held = "held" in box.dataset;
// Warnings to confirm are said by the form itself.
const confirming = Boolean(form.querySelector("button[name=confirmed]"));
const STATE = box.dataset.state;
// The round this form is for (queue.js moves it on past rounds waiting on the phone).
const number = () => Number(form.elements.number.value);
const LABELS = {dead: "Dead", hu: "Hu", tien_hu: "Tien Hu", no_passport: "No passport"};
const MARKS = {done: ["✓", " in"], check: ["!", " to check"], waiting: ["…", " not yet"]};
const token = form.querySelector("[name=csrf_token]").value;
// Hands' keys: the form's key's time (web/once.py).
const keyTime = form.querySelector("[name=key]").value.split(".")[0];
const draftField = form.querySelector("[name=draft]");
const strip = box.querySelector(".together-strip");
const note = document.getElementById("together-note");
let known = null;  // the latest state read
let asking = false;
let askAgain = false;

const idOf = (section) => Number(section.id.replace("player-", ""));
const rows = {};
for (const section of form.querySelectorAll(".round-player")) {
  const says = make("div", "together-row");
  says.setAttribute("aria-live", "polite");
  section.querySelector(".round-player-head").after(says);
  rows[idOf(section)] = {
    id: idOf(section), section, says,
    radios: section.querySelectorAll(".round-outcomes input"),
    input: section.querySelector(".round-cards input"),
    base: 0,  // the version of the hand this row last showed or sent
    shown: {outcome: "dead", cards: ""},
    theirs: null,  // another phone's hand, waiting for this phone's choice
    mine: 0,  // the version this phone saved
    key: null, keyed: null,  // the key of the hand last sent (web/once.py), and that hand
    sending: false, again: false,
  };
}

const words = (cards) => cards.split(/[\s,;]+/).filter(Boolean).join(" ").toUpperCase();
const same = (a, b) => a.outcome === b.outcome && words(a.cards) === words(b.cards);
const described = (hand) => LABELS[hand.outcome] + (hand.cards ? ", " + hand.cards : "");
const editing = (row) => !same(typed(row), row.shown) || document.activeElement === row.input;

function typed(row) {
  const outcome = ([...row.radios].find((radio) => radio.checked) || {value: "dead"}).value;
  return {outcome, cards: outcome === "hu" ? "" : row.input.value.trim()};
}

function make(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

function button(className, text) {
  const made = make("button", "button " + className, text);
  made.type = "button";
  return made;
}

function say(row, problem) {
  row.says.textContent = "";
  row.says.append(make("p", "error", problem));
}

// The row shows ``hand`` now: nothing waits for a choice.
function seen(row, hand) {
  row.shown = {outcome: hand.outcome, cards: hand.cards};
  row.base = hand.version;
  row.theirs = null;
}

// Another phone's hand into the row (cards.js redraws it on "input").
function put(row, hand) {
  for (const radio of row.radios) radio.checked = radio.value === hand.outcome;
  row.input.value = hand.cards;
  seen(row, hand);
  row.input.dispatchEvent(new Event("input", {bubbles: true}));
}

// A row whose hand is in (from any phone) is marked: the pad passes it by.
function sayRow(row, player) {
  row.section.classList.toggle("together-in", Boolean(player && player.done));
  row.says.textContent = "";
  row.says.append(...(player ? player.problems : []).map((problem) => make("p", "error", problem)));
  const hand = player && player.hand;
  if (row.theirs) {
    const ask = make("div", "together-ask");
    ask.append(make("p", "", `${row.theirs.phone} entered: ${described(row.theirs)}. ` +
                             `Yours: ${described(typed(row))}.`),
               button("together-theirs", "Use theirs"),
               button("round-secondary together-mine", "Keep mine"));
    row.says.append(ask);
  } else if (hand && hand.version !== row.mine) {
    row.says.append(make("p", "together-from", "Entered on " + hand.phone));
  }
}

function sayStrip(state) {
  strip.textContent = "";
  for (const player of state.players) {
    const how = player.done ? "done" : player.hand ? "check" : "waiting";
    const [mark, said] = MARKS[how];
    const item = make("li", "together-" + how);
    const shown = make("span", "together-mark", mark);
    item.dataset.player = player.id;
    shown.setAttribute("aria-hidden", "true");
    item.append(make("bdi", "", player.name), shown, make("span", "round-vh", said));
    strip.append(item);
  }
  note.textContent = "";
  if (state.number !== number() || !state.open) {
    const saved = state.open && state.number > number();
    const gone = make("p", "together-saved", !state.open ? "This session has ended."
      : saved ? `Round ${number()} is saved. `
      : `The rounds were changed on another phone: this is round ${state.number} now. `);
    if (state.open) {
      const link = make("a", "", saved ? `See round ${number()}` : `Enter round ${state.number}`);
      link.href = saved ? form.action.replace(/new$/, String(number())) : form.action;
      gone.append(link);
    }
    note.append(gone);
    return;
  }
  note.append(...state.problems.map((problem) => make("p", "error", problem)));
  if (state.complete && !held && !confirming) {
    note.append(make("p", "together-ready", `Everyone is in: tap Save round ${number()}.`),
                ...state.warnings.map((warning) => make("p", "round-warning", warning)));
  }
}

// Takes in a state: fills in the rows not typed in here, asks about the others.
function take(state) {
  const first = !known;
  known = state;
  box.dataset.draft = state.draft;  // the draft version this page has taken in
  if (held) {
    sayStrip(state);
    return;
  }
  const open = state.number === number() && state.open;
  for (const player of state.players) {
    const row = rows[player.id];
    const hand = player.hand;
    if (!row) continue;
    if (open && hand && hand.version > row.base) {
      if (same(hand, typed(row))) seen(row, hand);
      else if (!editing(row)) put(row, hand);
      else row.theirs = hand;
    }
    sayRow(row, player);
  }
  sayStrip(state);
  const waiting = Object.values(rows).some((row) => row.theirs);
  if (open && draftField && !waiting) draftField.value = state.draft;
  if (first) sendAll();  // what was typed before the first state came
}

function sendAll(keepalive) {
  for (const row of Object.values(rows)) send(row, keepalive);
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

async function send(row, keepalive = false) {
  if (held || !row || !known || known.number !== number() || !known.open) return;
  const hand = typed(row);
  if (row.theirs || same(hand, row.shown)) return;  // waiting for a choice, or nothing new
  if (row.sending) {
    row.again = true;
    return;
  }
  row.sending = true;
  // A new hand gets a new key; a hand sent again keeps its own.
  if (!row.keyed || !same(hand, row.keyed) || row.keyed.base !== row.base) {
    row.key = keyTime + "." + [...crypto.getRandomValues(new Uint8Array(16))]
      .map((byte) => byte.toString(16).padStart(2, "0")).join("");
    row.keyed = {...hand, base: row.base};
  }
  try {
    const response = await fetch(`${STATE}/${row.id}`, {
      method: "POST", credentials: "same-origin", keepalive,
      headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      body: JSON.stringify({...hand, base: row.base, number: number(), key: row.key}),
    });
    const body = await response.json();
    if (response.status === 200) {
      seen(row, body.hand);
      row.mine = body.hand.version;
      if (body.recorded) {
        window.location.assign(body.recorded.url);
        return;
      }
    } else if (body.hand) {
      row.theirs = body.hand;  // another phone's, saved since: this phone chooses
    } else {
      say(row, body.error || "This hand could not be sent.");
    }
    if (body.state) take(body.state);
    else if (response.ok) ask();  // a repeat's: no state
  } catch {
    say(row, "Not sent. It is still typed here, and Save sends it too.");
  } finally {
    row.sending = false;
    if (row.again) {
      row.again = false;
      send(row);
    }
  }
}

const rowOf = (element) => {
  const section = element && element.closest(".round-player");
  return section ? rows[idOf(section)] : null;
};
const activeRow = () => rowOf(form.querySelector(".round-player-active"));

// A hand is complete when its outcome is chosen (Hu needs no cards) or its
// cards are typed (the field's change), or the pad moves on from it.
form.addEventListener("change", (event) => {
  const row = rowOf(event.target);
  if (row && (event.target === row.input || typed(row).outcome === "hu" || row.input.value.trim())) {
    send(row);
  }
});
document.addEventListener("click", (event) => {
  const pad = document.getElementById("card-pad");
  if (!pad || !pad.contains(event.target)) return;
  const before = activeRow();
  setTimeout(() => before && activeRow() !== before && send(before), 0);
}, true);
form.addEventListener("click", (event) => {
  const chosen = event.target.closest(".together-theirs, .together-mine");
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
// A phone put away may not come back: what is typed is sent as it goes.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") sendAll(true);
});
document.addEventListener("live:change", (event) => {
  const detail = event.detail || {};
  if (!known || detail.draft !== known.draft || detail.version !== known.version) ask();
});
ask();
