// The round form's card pad, chips and points (README.md): the inputs stay
// the source of truth; only a tap switches the pad's player, visibly. On a
// phone that says whose it is (data-own), in a round filled in together, the
// pad keeps to the hand it was opened on; a hand in folds to one line.

import {JOKER, labelOf, parseCard, points, run, sameRank, short, tokens} from "./core/cards.js";
import {find, make, on, tell} from "./dom.js";
import {gettext, ngettext} from "./strings.js";

// Words read out for a card (the keys and chips show its notation, never
// translated): "queen of spades".
const RANK_NAMES = {
  // Translators: a card's rank, read out as "ace of spades" (the key shows A).
  A: gettext("ace"),
  // Translators: a card's rank, read out as "jack of spades" (the key shows J).
  J: gettext("jack"),
  // Translators: a card's rank, read out as "queen of spades" (the key shows Q).
  Q: gettext("queen"),
  // Translators: a card's rank, read out as "king of spades" (the key shows K).
  K: gettext("king"),
};
// Translators: the suits, read out as in "ace of spades" (the keys show ♠ ♥ ♦ ♣).
const SUIT_NAMES = {S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"),
                    C: gettext("clubs")};

/** @type {HTMLFormElement} */
const form = find("form.round-form");
const pad = find("#card-pad");
const {packs, jokers, jokerPoints, dealt, whole} = form.dataset;
// The outcomes' words, as the form's radios say them (the server's, in the page's language).
const OUTCOME_WORDS = JSON.parse(form.dataset.outcomes);
const [PACKS, JOKERS, JOKER_POINTS, DEALT] = [packs, jokers, jokerPoints, dealt].map(Number);
const OWN = Number(form.dataset.own) || null;  // the player whose phone this is
const actions = find(".round-actions", form);

/** "queen of spades", read out. */
const named = (rank, suitLetter) =>
  // Translators: a card read out: "queen of spades", "10 of hearts".
  gettext("%(rank)s of %(suit)s", {rank: RANK_NAMES[rank] || rank, suit: SUIT_NAMES[suitLetter]});
// Translators: the joker card, read out.
const cardName = (card) => card === JOKER ? gettext("joker") : named(card.label, card.suit);
const pts = (n) => ngettext("%(num)s pt", "%(num)s pts", n);
const cardsOf = (row) => tokens(row.input.value);
const label = (element, text) => element.setAttribute("aria-label", text);
const press = (element, pressed) => element.setAttribute("aria-pressed", String(pressed));

const rows = [...form.querySelectorAll(".round-player")].map((/** @type {HTMLElement} */ section) => {
  /** @type {HTMLInputElement} */
  const input = find(".round-cards input", section);
  const row = {
    id: Number(section.dataset.player), section, input,
    name: find("h2", section).textContent,
    box: input.parentElement,
    optional: find(".round-optional", section) || make("p", "round-optional", form.dataset.optional),
    chips: make("div", "round-chips"),
    /** @type {HTMLButtonElement} */ add: find(".round-add", section),
    points: make("output", "round-points"),
    line: make("span", "round-line"),  // the hand in, on one line
    // Translators: the button on a hand folded to one line, to open it again.
    edit: make("button", "round-edit", gettext("edit")),
    radios: section.querySelectorAll(".round-outcomes input"),
    what: find(".round-cards label", section).firstChild,  // its words
    cards: [],
  };
  row.optional.id = section.id + "-optional";
  row.add.hidden = false;
  row.points.htmlFor.value = input.id;
  row.edit.type = "button";
  label(row.edit, gettext("Edit %(name)s's hand", {name: row.name}));
  row.line.hidden = row.edit.hidden = true;
  find(".round-player-head", section).append(row.points, row.line, row.edit);
  input.before(row.optional, row.chips);
  return row;
});
const key = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(`card-pad-${id}`));
const [runKey, againKey, undoKey, prevKey, nextKey] = ["run", "again", "undo", "prev", "next"].map(key);
const [padTitle, padPlayer, padPoints, padNote] = ["title", "player", "points", "note"].map(key);
const [suitKeys, [jokerKey]] = ["suit", "card"].map(
  (kind) => /** @type {HTMLButtonElement[]} */ ([...pad.querySelectorAll(`[data-${kind}]`)]));
const rankKeys = Array.from({length: 13}, (_, i) => {
  const rankKey = make("button", "round-key", labelOf(i + 1));
  rankKey.type = "button";
  rankKey.dataset.rank = rankKey.textContent;
  return rankKey;
});
undoKey.before(...rankKeys);
let active = null;
let suit = "S";
let running = false;  // the next rank ends a run
let note = "";  // who the pad moved on from
let lastRow = null;  // whose hand the last card went to
let counts = {};  // copies of each card
let handsIn = new Set();  // players whose hands are in (together.js)
let unsent = new Set();  // players whose hand here is not the one in (together.js)
let reopened = null;  // a hand in, opened again by a tap
let typing = false;  // a cards field has the keyboard: the pad hides

const outcomeOf = (row) => [...row.radios].find((radio) => radio.checked)?.value || "dead";
const rowOf = (element) => rows.find((row) => row.section === element.closest(".round-player")) || null;
const takesCards = (row) => outcomeOf(row) !== "hu";
const settled = (id) => handsIn.has(id) && !unsent.has(id);  // in, as shown here
const stepsTo = (row) => takesCards(row) && !handsIn.has(row.id);  // ‹ › pass hands in by
const optional = (row) => rows.some((other) => other !== row && outcomeOf(other) === "tien_hu");
const copies = (card) => card === "JK" ? JOKERS : PACKS;
const left = (card) => (counts[card] || 0) < copies(card);

function needsCards(row) {
  const outcome = outcomeOf(row);
  if (outcome === "hu" || optional(row) || handsIn.has(row.id)) return false;
  return outcome === "dead" ? !row.cards.length : row.cards.length < DEALT;
}

// The next row (step 1) or the one before (-1), round, that passes ``test``.
function around(row, step, test) {
  const n = rows.length;
  const i = rows.indexOf(row);
  for (let k = 1; k < n; k++) {
    const other = rows[((i + step * k) % n + n) % n];
    if (test(other)) return other;
  }
  return null;
}

// A hand in, in short: "14 pts · 4♣ 8♦ 2♠", "Hu".
function line(row, total) {
  const outcome = outcomeOf(row);
  const cards = row.cards.map(({token, card}) => card ? short(card.key) : token).join(" ");
  const n = row.cards.length;
  if (outcome === "hu") return OUTCOME_WORDS.hu;
  if (outcome === "tien_hu") {
    return [OUTCOME_WORDS.tien_hu, ngettext("%(num)s card", "%(num)s cards", n)].join(" · ");
  }
  const said = outcome === "dead" ? [pts(total)] : [OUTCOME_WORDS[outcome], pts(total)];
  return [...said, cards || gettext("no cards")].join(" · ");
}

function summary(row, total, bad) {
  const outcome = outcomeOf(row);
  if (outcome === "hu") return `${OUTCOME_WORDS.hu} · ${pts(0)}`;
  const n = row.cards.length - bad;
  let text = outcome === "dead" ? ngettext("%(num)s card", "%(num)s cards", n)
    // Translators: cards typed of a whole dealt hand: "12 of 20 cards".
    : ngettext("%(num)s of %(dealt)s card", "%(num)s of %(dealt)s cards", DEALT, {num: n, dealt: DEALT});
  if (outcome !== "tien_hu") text += ` · ${pts(total)}`;
  // Translators: words typed in a hand that are not cards: "2 unreadable".
  if (bad) text += " · " + gettext("%(num)s unreadable", {num: bad});
  return text;
}

// Nothing moves under a finger on the screen (its tap would land elsewhere):
// a hand folding or opening, Save sticking, the pad coming back after the
// keyboard; they wait for its click (or the touch becoming a scroll).
let pressed = false;
let owed = false;
document.addEventListener("pointerdown", () => { pressed = true; }, true);
for (const name of ["click", "pointercancel"]) {
  window.addEventListener(name, () => {
    pressed = false;
    if (owed) refresh();
  });
}

// A hand in folds to one line, unless the pad is on it or it is typed in.
function fold(row) {
  const folded = settled(row.id) && row !== active && row !== reopened
    && document.activeElement !== row.input;
  if (pressed && folded !== row.section.classList.contains("round-player-in")) {
    owed = true;
    return;
  }
  row.section.classList.toggle("round-player-in", folded);
  row.line.hidden = row.edit.hidden = !folded;
  if (folded) row.line.textContent = "✓ " + line(row, row.total);
}

function renderRow(row) {
  let total = 0;
  let bad = 0;
  row.chips.textContent = "";
  row.cards.forEach(({token, card}, index) => {
    const chip = make("button");
    chip.type = "button";
    chip.dataset.index = index;
    if (card) {
      total += points(card, JOKER_POINTS);
      chip.className = "chip round-chip " + (card === JOKER ? "chip-joker"
        : card.suit === "H" || card.suit === "D" ? "chip-red" : "chip-black");
      chip.textContent = card === JOKER ? "JK" : short(card.key);
      label(chip, gettext("Remove %(card)s", {card: cardName(card)}));
      if (counts[card.key] > copies(card.key)) {
        chip.classList.add("round-chip-over");
        chip.title = gettext("More of this card than the deck holds");
      }
    } else {
      bad++;
      chip.className = "chip round-chip round-chip-bad";
      chip.textContent = token + "?";
      label(chip, gettext("Remove %(token)s (not a card)", {token}));
    }
    row.chips.appendChild(chip);
  });
  row.chips.hidden = !row.cards.length;
  row.points.textContent = summary(row, total, bad);
  row.what.nodeValue = /^(tien_hu|no_passport)$/.test(outcomeOf(row)) ? whole
    : gettext("Cards left");  // as the server's label says it
  row.total = total;
  fold(row);
  row.optional.hidden = !optional(row);
  if (row.optional.hidden) row.input.removeAttribute("aria-describedby");
  else row.input.setAttribute("aria-describedby", row.optional.id);
}

// The last natural card: a run or a set goes on from it.
function lastCard() {
  const item = active.cards[active.cards.length - 1];
  return item && item.card !== JOKER ? item.card : null;
}

// A run from the last card to ``rank``, or null if the deck or hand can't take it.
function runTo(rank) {
  const from = lastCard();
  const cards = from && run(from, rank);
  return cards && active.cards.length + cards.length <= DEALT && cards.every(left) ? cards : null;
}

// The last card's rank in the next suit (♠ ♥ ♦ ♣) the deck still has.
function again() {
  const from = lastCard();
  return from && active.cards.length < DEALT ? sameRank(from).find(left) || null : null;
}

function renderPad() {
  for (const row of rows) {
    row.section.classList.toggle("round-player-active", row === active);
    press(row.add, row === active);
  }
  pad.dataset.player = active ? String(active.id) : "";  // together.js reads it
  const hide = !active || typing;
  if (pressed && !hide && pad.hidden) owed = true;  // not over where a finger is
  else pad.hidden = hide;
  // Save stays in reach (above the pad) once every hand is in.
  const ready = !rows.some(needsCards);
  if (pressed && ready !== actions.classList.contains("round-actions-ready")) owed = true;
  else actions.classList.toggle("round-actions-ready", ready);
  if (!active) return;
  padPlayer.textContent = active.name;
  const full = active.cards.length >= DEALT;
  const from = lastCard();
  if (!from || full) running = false;
  // Translators: the pad's note as a run is begun: "Run from 4♠ to…" (the next rank tapped ends it).
  const text = running ? gettext("Run from %(card)s to…", {card: short(from.key)}) : note;
  if (padNote.textContent !== text) padNote.textContent = text;  // read out once
  padPoints.textContent = active.points.textContent;
  padPoints.hidden = Boolean(text);
  for (const suitKey of suitKeys) press(suitKey, suitKey.dataset.suit === suit);
  for (const rankKey of rankKeys) {
    const rank = rankKey.dataset.rank;
    rankKey.disabled = full || (running ? !runTo(rank) : !left(rank + suit));
    const card = named(rank, suit);
    label(rankKey, running ? gettext("Run to %(card)s", {card}) : gettext("Add %(card)s", {card}));
  }
  jokerKey.disabled = full || !left("JK");
  runKey.disabled = !from || full;
  press(runKey, running);
  label(runKey, from && !full ? gettext("Run from %(card)s", {card: cardName(from)}) : gettext("Run"));
  const next = again();
  againKey.disabled = !next;
  againKey.textContent = next ? short(next) : "=";
  againKey.classList.toggle("suit-red", /[HD]$/.test(next || ""));
  label(againKey, next ? gettext("%(card)s, same rank, next suit", {card: cardName(parseCard(next))})
    : gettext("Same rank, next suit"));
  undoKey.disabled = !active.cards.length && !undoElsewhere();
  const before = around(active, -1, stepsTo);
  const after = around(active, 1, stepsTo);
  prevKey.disabled = !before;
  nextKey.disabled = !after;
  label(prevKey, before ? gettext("Previous player: %(name)s", {name: before.name})
    : gettext("Previous player"));
  label(nextKey, after ? gettext("Next player: %(name)s", {name: after.name}) : gettext("Next player"));
}

// Runs ``draw`` keeping what is under the thumb where it is on the screen as
// hands fold or open: what has the focus (a tap lands on it), else the pad's
// row, else the first row in view; the first of them still shown after.
function steady(draw) {
  const focused = document.activeElement;
  const held = [form.contains(focused) && !pad.contains(focused) ? focused : null, active?.section,
                rows.map((row) => row.section).find((section) => section.getBoundingClientRect().bottom > 0)]
    .filter(Boolean).map((element) => ({element, top: element.getBoundingClientRect().top}));
  draw();
  for (const {element, top} of held) {
    const now = element.getBoundingClientRect();
    if (!now.height) continue;  // folded away
    if (now.top !== top) window.scrollBy(0, now.top - top);
    return;
  }
}

// Reads every input, redraws everything: a round has a few dozen cards.
const refresh = () => steady(() => {
  owed = false;
  counts = {};
  for (const row of rows) {
    const hu = outcomeOf(row) === "hu";
    row.input.disabled = hu;  // nothing posted
    row.box.hidden = hu;
    row.cards = hu ? [] : cardsOf(row).map((token) => ({token, card: parseCard(token)}));
    for (const {card} of row.cards) {
      if (card) counts[card.key] = (counts[card.key] || 0) + 1;
    }
  }
  rows.forEach(renderRow);
  renderPad();
  makeRoom();
});

// Room for the open pad and Save held at the bottom: everything scrolls
// above them, Save above the pad.
function makeRoom() {
  const padRoom = pad.hidden ? 0 : pad.offsetHeight;
  const held = padRoom + (actions.classList.contains("round-actions-ready") ? actions.offsetHeight : 0);
  const room = held ? held + "px" : "";
  document.body.style.paddingBottom = room;
  document.documentElement.style.scrollPaddingBottom = room;
  form.style.setProperty("--pad-room", padRoom + "px");
}
if ("ResizeObserver" in window) new ResizeObserver(makeRoom).observe(pad);

function flash(element, name) {
  element.classList.remove(name);
  void element.offsetWidth;  // restarts the animation
  element.classList.add(name);
}

// Opens the pad on ``row`` (null closes it), having ``moved`` on from another.
// Only a tap calls this, never a scroll.
function activate(row, moved = "") {
  const previous = active;
  active = row && takesCards(row) ? row : null;
  if (reopened && reopened !== row) reopened = null;
  running = false;
  note = active && moved ? moved : "";
  refresh();
  makeRoom();
  if (!active) return;
  if (active !== previous) {
    flash(padTitle, "round-pad-switched");
    flash(active.section, "round-player-switched");
  }
  active.section.scrollIntoView({block: "nearest"});
}

// On to the next player who needs cards, or to Save; on a phone that says
// whose it is, the pad closes (together.js says who is still to come).
function moveOn(done = active, focused = pad.contains(document.activeElement)) {
  const next = !OWN && done && around(done, 1, needsCards);
  if (next) {
    activate(next, gettext("✓ %(done)s done · now %(next)s", {done: done.name, next: next.name}));
    return next;
  }
  activate(null);
  if (OWN) {
    if (!typing) window.scrollTo({top: 0});  // to what together.js says
    return null;
  }
  actions.scrollIntoView({block: "nearest"});
  if (focused) find("[type=submit]", actions).focus({preventScroll: true});
  return null;
}

// On an empty hand, undo takes the last card off the hand it went to.
function undoElsewhere() {
  return lastRow && lastRow !== active && takesCards(lastRow) && lastRow.cards.length ? lastRow : null;
}

// A hand changed here: redrawn, and kept by together.js (both on "input").
function setTokens(row, list) {
  row.input.value = list.join(" ");
  row.input.dispatchEvent(new Event("input", {bubbles: true}));
}

function addCards(cards) {
  lastRow = active;
  note = "";
  running = false;
  setTokens(active, cardsOf(active).concat(cards));
  if (outcomeOf(active) !== "dead" && active.cards.length >= DEALT) moveOn();
  else active.section.scrollIntoView({block: "nearest"});
}

function padKey(target) {
  if (target.dataset.suit) {
    suit = target.dataset.suit;
    running = false;
    refresh();
  } else if (target.dataset.card) {
    addCards(["JK"]);
  } else if (target.dataset.rank) {
    addCards(running ? runTo(target.dataset.rank) : [target.dataset.rank + suit]);
  } else if (target === runKey) {
    running = !running;
    suit = lastCard().suit;
    refresh();
  } else if (target === againKey) {
    suit = again().slice(-1);
    addCards([again()]);
  } else if (target === undoKey) {
    running = false;
    if (!active.cards.length) activate(undoElsewhere());
    setTokens(active, cardsOf(active).slice(0, -1));
  } else if (target === prevKey || target === nextKey) {
    activate(around(active, target === prevKey ? -1 : 1, stepsTo));
  } else if (target.id === "card-pad-done") {
    moveOn();
  }
}

form.addEventListener("click", (event) => {
  const tapped = /** @type {HTMLElement} */ (event.target);
  const target = tapped.closest("button") || tapped;
  const row = rowOf(target);
  if (row && target.closest(".round-chip")) {
    const list = cardsOf(row);
    list.splice(Number(target.dataset.index), 1);
    setTokens(row, list);
    if (row !== active) activate(row);
  } else if (target.closest(".round-add")) {
    activate(row);
  } else if (row && row.section.classList.contains("round-player-in")) {
    reopened = row;  // "edit", or a tap on the line
    activate(row);
  } else if (active && pad.contains(target)) {
    const before = active;
    padKey(target);
    if (active !== before) tell(form, "pad:left", {player: before.id});
  } else if (row && !target.closest("input, label, a, button")) {
    activate(row);
  }
});

form.addEventListener("input", (event) => {
  if (/** @type {Element} */ (event.target).closest(".round-cards")) refresh();  // together.js too
});

// An outcome opens the pad on its player; Hu for the pad's moves it on.
form.addEventListener("change", (event) => {
  const target = /** @type {Element} */ (event.target);
  const row = rowOf(target);
  if (!row || !target.closest(".round-outcomes")) return;
  if (takesCards(row)) activate(row);
  else if (row === active) moveOn();
  else refresh();
});

// Enter in a cards field: that hand is done (together.js sends it), and the
// next one who needs cards is typed in; never the whole round sent.
form.addEventListener("keydown", (event) => {
  const row = rowOf(/** @type {Element} */ (event.target));
  if (event.key !== "Enter" || event.isComposing || !row || event.target !== row.input) return;
  event.preventDefault();
  if (reopened === row) reopened = null;
  const next = moveOn(row, true);
  if (next) next.input.focus();
  else if (OWN) row.input.blur();
  tell(form, "pad:left", {player: row.id});
});

// The focus moved: the pad and the folds follow (the chips stay: a tap on
// one is under way). The keyboard gone, the pad comes back only to a hand
// that still needs cards: one typed in is done.
function focusMoved(field) {
  if (typing && !field && active && !needsCards(active)) active = null;
  typing = field;
  steady(() => {
    rows.forEach(fold);
    renderPad();
  });
  makeRoom();
}
form.addEventListener("focusin", (event) => {
  focusMoved(rowOf(/** @type {Element} */ (event.target))?.input === event.target);
});
form.addEventListener("focusout", (event) => {
  const going = /** @type {Element | null} */ (event.relatedTarget);
  if (!going || !form.contains(going)) focusMoved(false);  // else focusin follows
});

// Who is in, live: a hand put in from another phone, or the pad's hand
// coming in as it is here (typed), takes it off the pad.
on(form, "together:in", (told) => {
  const was = active && settled(active.id);
  handsIn = new Set(told.players);
  unsent = new Set(told.unsent);
  for (const row of rows.filter((each) => told.arrived.includes(each.id))) {
    if (lastRow === row) lastRow = null;
  }
  if (active && (told.arrived.includes(active.id) || (!was && settled(active.id)))) moveOn(active);
  refresh();
});
// "Fill in for Dan" (together.js): a deliberate tap.
on(form, "pad:open", ({player}) => {
  const row = rows.find((each) => each.id === player);
  if (row && handsIn.has(row.id)) reopened = row;
  activate(row);
});
on(form, "pad:close", () => activate(null));

refresh();
// The pad starts on the first hand to need cards once the page's modules
// have all run, as it is parsed (a hand together.js put back from the phone
// needs none).
document.addEventListener("DOMContentLoaded", () => {
  const first = OWN ? rows.find((row) => row.id === OWN && needsCards(row)) : rows.find(needsCards);
  if (form.hasAttribute("data-autostart") && first) activate(first);
});
