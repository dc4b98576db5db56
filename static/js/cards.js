// The round form's card pad, chips and live points; each player's input stays
// the source of truth. Only a tap switches the pad's player, and visibly.

const RANKS = {A: 1, T: 10, J: 11, Q: 12, K: 13};
for (let r = 2; r <= 10; r++) RANKS[r] = r;
const LABELS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"};
const RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king"};
const SUITS = "SHDC";
const SYMBOLS = {S: "♠", H: "♥", D: "♦", C: "♣"};
const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
const SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"};
const JOKER_WORDS = ["JK", "JOKER", "★", "🃏"];
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

const form = document.querySelector("form.round-form");
const pad = document.getElementById("card-pad");
const PACKS = Number(form.dataset.packs);
const JOKERS = Number(form.dataset.jokers);
const JOKER_POINTS = Number(form.dataset.jokerPoints);
const DEALT = Number(form.dataset.dealt);

// Mirrors scorekeeper.rules.cards.parse_card; null for an unreadable token.
function parse(token) {
  const text = token.replace(/\uFE0F/g, "").trim().toUpperCase();
  if (JOKER_WORDS.includes(text)) return {key: "JK", points: JOKER_POINTS};
  const chars = Array.from(text);
  const last = chars.pop() || "";
  const suit = has(SUIT_OF, last) ? SUIT_OF[last] : last;
  const rankText = chars.join("");
  if (!has(RANKS, rankText) || !suit || !SUITS.includes(suit)) return null;
  const rank = RANKS[rankText];
  const label = LABELS[rank] || String(rank);
  return {key: label + suit, label, rank, suit, points: rank === 1 ? 15 : Math.min(rank, 10)};
}

const cardName = (card) => card.key === "JK" ? "joker"
  : `${RANK_NAMES[card.label] || card.label} of ${SUIT_NAMES[card.suit]}`;
const shortName = (key) => key.slice(0, -1) + SYMBOLS[key.slice(-1)];
const tokens = (input) => input.value.split(/[\s,;]+/).filter(Boolean);
const label = (element, text) => element.setAttribute("aria-label", text);
const press = (element, on) => element.setAttribute("aria-pressed", String(on));

function make(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

// Each player's row, with its parts that need this script.
const rows = [...form.querySelectorAll(".round-player")].map((section) => {
  const input = section.querySelector(".round-cards input");
  const row = {
    section, input,
    name: section.querySelector("h2").textContent,
    box: input.parentElement,
    optional: section.querySelector(".round-optional") || make("p", "round-optional", form.dataset.optional),
    chips: make("div", "round-chips"),
    add: section.querySelector(".round-add"),
    points: make("output", "round-points"),
    radios: section.querySelectorAll(".round-outcomes input"),
    cards: [],
  };
  row.optional.id = section.id + "-optional";
  row.add.hidden = false;
  row.points.htmlFor = input.id;
  section.querySelector(".round-player-head").append(row.points);
  input.before(row.optional, row.chips);
  return row;
});
const key = (id) => document.getElementById(`card-pad-${id}`);
const [runKey, againKey, undoKey, prevKey, nextKey] = ["run", "again", "undo", "prev", "next"].map(key);
const [padTitle, padPlayer, padPoints, padNote] = ["title", "player", "points", "note"].map(key);
let active = null;
let suit = "S";
let running = false;  // the Run key is down: the next rank ends a run
let note = "";        // who the pad just moved on from
let lastRow = null;   // whose hand the pad's last card went into
let counts = {};      // copies of each card across the round

const outcomeOf = (row) => ([...row.radios].find((radio) => radio.checked) || {value: "dead"}).value;
const rowOf = (element) => rows.find((row) => row.section === element.closest(".round-player")) || null;
const takesCards = (row) => outcomeOf(row) !== "hu";
const optional = (row) => rows.some((other) => other !== row && outcomeOf(other) === "tien_hu");
const copies = (key) => key === "JK" ? JOKERS : PACKS;  // in the deck
const left = (key) => (counts[key] || 0) < copies(key);

// Whether the pad still comes to this player (together.js marks rows sent in).
function needsCards(row) {
  const outcome = outcomeOf(row);
  if (outcome === "hu" || optional(row) || row.section.classList.contains("together-in")) {
    return false;
  }
  return outcome === "dead" ? !row.cards.length : row.cards.length < DEALT;
}

// The next row (``step`` 1) or the one before (-1), going round, that passes ``test``.
function around(row, step, test) {
  const n = rows.length;
  const i = rows.indexOf(row);
  for (let k = 1; k < n; k++) {
    const other = rows[((i + step * k) % n + n) % n];
    if (test(other)) return other;
  }
  return null;
}

function summary(row, total, bad) {
  const outcome = outcomeOf(row);
  if (outcome === "hu") return "Hu · 0 pts";
  const n = row.cards.length - bad;
  let text = outcome === "dead" ? `${n} ${n === 1 ? "card" : "cards"}` : `${n} of ${DEALT} cards`;
  if (outcome !== "tien_hu") text += ` · ${total} pts`;
  if (bad) text += ` · ${bad} unreadable`;
  return text;
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
      total += card.points;
      chip.className = "chip round-chip " + (card.key === "JK" ? "chip-joker"
        : card.suit === "H" || card.suit === "D" ? "chip-red" : "chip-black");
      chip.textContent = card.key === "JK" ? "JK" : card.label + SYMBOLS[card.suit];
      label(chip, "Remove " + cardName(card));
      if (counts[card.key] > copies(card.key)) {
        chip.classList.add("round-chip-over");
        chip.title = "More of this card than the deck holds";
      }
    } else {
      bad++;
      chip.className = "chip round-chip round-chip-bad";
      chip.textContent = token + "?";
      label(chip, `Remove ${token} (not a card)`);
    }
    row.chips.appendChild(chip);
  });
  row.chips.hidden = !row.cards.length;
  row.points.textContent = summary(row, total, bad);
  row.optional.hidden = !optional(row);
  if (row.optional.hidden) row.input.removeAttribute("aria-describedby");
  else row.input.setAttribute("aria-describedby", row.optional.id);
}

// The active hand's last natural card: where a run or a set goes on.
function lastCard() {
  const item = active.cards[active.cards.length - 1];
  return item && item.card && item.card.key !== "JK" ? item.card : null;
}

// A run from the last card to ``label`` in its suit (an ace at the nearer end:
// A 2 3 or Q K A), or null if the deck or the hand can't take it.
function runTo(label) {
  const from = lastCard();
  if (!from) return null;
  let end = RANKS[label];
  if (end === 1 && 14 - from.rank < from.rank - 1) end = 14;
  if (end === from.rank) return null;
  const step = end > from.rank ? 1 : -1;
  const cards = [];
  for (let rank = from.rank + step; rank !== end + step; rank += step) {
    cards.push((LABELS[rank] || String(rank)) + from.suit);
  }
  return active.cards.length + cards.length <= DEALT && cards.every(left) ? cards : null;
}

// The last card's rank in the next suit (♠ ♥ ♦ ♣) the deck still has.
function again() {
  const from = lastCard();
  if (!from || active.cards.length >= DEALT) return null;
  for (let k = 1; k <= 4; k++) {
    const card = from.label + SUITS[(SUITS.indexOf(from.suit) + k) % 4];
    if (left(card)) return card;
  }
  return null;
}

function renderPad() {
  for (const row of rows) {
    row.section.classList.toggle("round-player-active", row === active);
    press(row.add, row === active);
  }
  pad.hidden = !active;
  if (!active) return;
  padPlayer.textContent = active.name;
  const full = active.cards.length >= DEALT;
  const from = lastCard();
  if (!from || full) running = false;
  const text = running ? `Run from ${shortName(from.key)} to…` : note;
  if (padNote.textContent !== text) padNote.textContent = text;  // read out once
  padPoints.textContent = active.points.textContent;
  padPoints.hidden = Boolean(text);
  for (const suitKey of pad.querySelectorAll("[data-suit]")) {
    press(suitKey, suitKey.dataset.suit === suit);
  }
  for (const rankKey of pad.querySelectorAll("[data-rank]")) {
    const rank = rankKey.dataset.rank;
    rankKey.disabled = full || (running ? !runTo(rank) : !left(rank + suit));
    label(rankKey, `${running ? "Run to" : "Add"} ${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`);
  }
  pad.querySelector("[data-card]").disabled = full || !left("JK");
  runKey.disabled = !from || full;
  press(runKey, running);
  label(runKey, from && !full ? "Run from " + cardName(from) : "Run");
  const next = again();
  againKey.disabled = !next;
  againKey.textContent = next ? shortName(next) : "=";
  againKey.classList.toggle("suit-red", /[HD]$/.test(next || ""));
  label(againKey, (next ? cardName(parse(next)) + ", " : "") + "same rank, next suit");
  undoKey.disabled = !active.cards.length && !undoElsewhere();
  const before = around(active, -1, takesCards);
  const after = around(active, 1, takesCards);
  prevKey.disabled = !before;
  nextKey.disabled = !after;
  label(prevKey, "Previous player" + (before ? ": " + before.name : ""));
  label(nextKey, "Next player" + (after ? ": " + after.name : ""));
}

// Reads every input and redraws everything: a round has a few dozen cards.
function refresh() {
  counts = {};
  for (const row of rows) {
    const hu = outcomeOf(row) === "hu";
    row.input.disabled = hu;  // a Hu player has no cards: nothing is posted
    row.box.hidden = hu;
    row.cards = hu ? [] : tokens(row.input).map((token) => ({token, card: parse(token)}));
    for (const {card} of row.cards) {
      if (card) counts[card.key] = (counts[card.key] || 0) + 1;
    }
  }
  rows.forEach(renderRow);
  renderPad();
}

// Room at the bottom for the open pad: everything scrolls above it.
function makeRoom() {
  const room = active ? pad.offsetHeight + "px" : "";
  document.body.style.paddingBottom = room;
  document.documentElement.style.scrollPaddingBottom = room;
}
if ("ResizeObserver" in window) new ResizeObserver(makeRoom).observe(pad);

function flash(element, name) {
  element.classList.remove(name);
  void element.offsetWidth;  // restarts the animation
  element.classList.add(name);
}

// Opens the pad on ``row`` (null closes it); ``moved`` says who it moved on
// from. Only a tap calls this, never a scroll.
function activate(row, moved) {
  const previous = active;
  active = row && takesCards(row) ? row : null;
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

// The active player is done: on to the next who needs cards, or to Save.
function moveOn() {
  const done = active;
  const next = done && around(done, 1, needsCards);
  if (next) {
    activate(next, `✓ ${done.name} done · now ${next.name}`);
    return;
  }
  const focused = pad.contains(document.activeElement);
  activate(null);
  const actions = form.querySelector(".round-actions");
  actions.scrollIntoView({block: "nearest"});
  if (focused) actions.querySelector("[type=submit]").focus({preventScroll: true});
}

// On an empty hand, undo takes the last card off the hand it went into.
function undoElsewhere() {
  return lastRow && lastRow !== active && takesCards(lastRow) && lastRow.cards.length ? lastRow : null;
}

function setTokens(row, list) {
  row.input.value = list.join(" ");
  refresh();
}

function addCards(cards) {
  lastRow = active;
  note = "";
  running = false;
  setTokens(active, tokens(active.input).concat(cards));
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
    setTokens(active, tokens(active.input).slice(0, -1));
  } else if (target === prevKey || target === nextKey) {
    activate(around(active, target === prevKey ? -1 : 1, takesCards));
  } else if (target.id === "card-pad-done") {
    moveOn();
  }
}

form.addEventListener("click", (event) => {
  const target = event.target.closest("button") || event.target;
  const row = rowOf(target);
  if (row && target.closest(".round-chip")) {
    const list = tokens(row.input);
    list.splice(Number(target.dataset.index), 1);
    setTokens(row, list);
    if (row !== active) activate(row);
  } else if (target.closest(".round-add")) {
    activate(row);
  } else if (active && pad.contains(target)) {
    padKey(target);
  } else if (row && !target.closest("input, label, a, button")) {
    activate(row);
  }
});

form.addEventListener("input", (event) => {
  if (event.target.closest(".round-cards")) refresh();
});

// An outcome chosen opens the pad for that player; Hu for the pad's moves it on.
form.addEventListener("change", (event) => {
  const row = rowOf(event.target);
  if (!row || !event.target.closest(".round-outcomes")) return;
  if (takesCards(row)) activate(row);
  else if (row === active) moveOn();
  else refresh();
});

refresh();
const first = rows.find(needsCards);
if (form.hasAttribute("data-autostart") && first) activate(first);
