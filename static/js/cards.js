// Tap-to-add card entry for the round form: a card pad docked at the bottom,
// chips that a tap removes, live points. Progressive enhancement: each
// player's text input stays the source of truth, and the server recomputes.
// The pad goes from player to player in playing order, and only a tap
// switches it: the head names the player, with a brief highlight.
"use strict";

const RANKS = {A: 1, T: 10, J: 11, Q: 12, K: 13};
for (let r = 2; r <= 10; r++) RANKS[r] = r;
const LABELS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"};
const RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king"};
const SUITS = "SHDC";
const SYMBOLS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
const SUIT_OF = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                 "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"};
const JOKER_WORDS = ["JK", "JOKER", "\u2605", "\uD83C\uDCCF"];
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

const form = document.querySelector("form.round-form");
const pad = document.getElementById("card-pad");
if (form && pad) cardPad(form, pad);

function cardPad(form, pad) {
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

  const rows = [...form.querySelectorAll(".round-player")].map((section) => ({
    section,
    name: section.querySelector("h2").textContent,
    input: section.querySelector(".round-cards input"),
    box: section.querySelector(".round-cards"),
    optional: section.querySelector(".round-optional"),
    chips: section.querySelector(".round-chips"),
    add: section.querySelector(".round-add"),
    points: section.querySelector(".round-points"),
    radios: section.querySelectorAll(".round-outcomes input"),
    cards: [],
  }));
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
  // Another player has Tien Hu: this player's cards may be left empty.
  const optional = (row) => rows.some((other) => other !== row && outcomeOf(other) === "tien_hu");

  // Whether the pad should still come to this player: a full hand for Tien Hu
  // and no passport, some cards for a dead player outside a Tien Hu round;
  // not a hand another phone has sent in (together.js marks its row).
  function needsCards(row) {
    const outcome = outcomeOf(row);
    if (outcome === "hu" || optional(row) || row.section.classList.contains("together-in")) {
      return false;
    }
    return outcome === "dead" ? !row.cards.length : row.cards.length < DEALT;
  }

  // The first row after ``row`` in playing order (``step`` 1) or before it
  // (-1), going round, that passes ``test``; never ``row`` itself.
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
    if (outcome === "hu") return "Hu \u00b7 0 pts";
    const n = row.cards.length - bad;
    let text = outcome === "dead" ? `${n} ${n === 1 ? "card" : "cards"}` : `${n} of ${DEALT} cards`;
    if (outcome !== "tien_hu") text += ` \u00b7 ${total} pts`;
    if (bad) text += ` \u00b7 ${bad} unreadable`;
    return text;
  }

  function renderRow(row) {
    let total = 0;
    let bad = 0;
    row.chips.textContent = "";
    row.cards.forEach((item, index) => {
      const chip = document.createElement("button");
      const card = item.card;
      chip.type = "button";
      chip.dataset.index = index;
      if (card) {
        total += card.points;
        chip.className = "chip round-chip " + (card.key === "JK" ? "chip-joker"
          : card.suit === "H" || card.suit === "D" ? "chip-red" : "chip-black");
        chip.textContent = card.key === "JK" ? "JK" : card.label + SYMBOLS[card.suit];
        chip.setAttribute("aria-label", "Remove " + cardName(card));
        if (counts[card.key] > (card.key === "JK" ? JOKERS : PACKS)) {
          chip.classList.add("round-chip-over");
          chip.title = "More of this card than the deck holds";
        }
      } else {
        bad++;
        chip.className = "chip round-chip round-chip-bad";
        chip.textContent = item.token + "?";
        chip.setAttribute("aria-label", `Remove ${item.token} (not a card)`);
      }
      row.chips.appendChild(chip);
    });
    row.chips.hidden = !row.cards.length;
    row.points.hidden = false;
    row.points.textContent = summary(row, total, bad);
    row.optional.hidden = !optional(row);
    if (row.optional.hidden) row.input.removeAttribute("aria-describedby");
    else row.input.setAttribute("aria-describedby", row.optional.id);
  }

  // The active player's last card, if a natural one: where a run or a set goes on from.
  function lastCard() {
    const item = active.cards[active.cards.length - 1];
    return item && item.card && item.card.key !== "JK" ? item.card : null;
  }

  const left = (card) => (counts[card] || 0) < (card === "JK" ? JOKERS : PACKS);

  // The cards of a run from the last card to ``label`` in its suit (an ace at
  // the nearer end: A 2 3 or Q K A), or null if the deck or the hand can't take them.
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

  // The last card's rank in the next suit round ♠ ♥ ♦ ♣ that the deck still
  // has: a set goes in one tap a card.
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
      row.add.setAttribute("aria-pressed", String(row === active));
    }
    pad.hidden = !active;
    if (!active) return;
    padPlayer.textContent = active.name;
    const full = active.cards.length >= DEALT;
    const from = lastCard();
    if (!from || full) running = false;
    const text = running ? `Run from ${shortName(from.key)} to\u2026` : note;
    if (padNote.textContent !== text) padNote.textContent = text;  // read out once
    padPoints.textContent = active.points.textContent;
    padPoints.hidden = Boolean(text);
    for (const suitKey of pad.querySelectorAll("[data-suit]")) {
      suitKey.setAttribute("aria-pressed", String(suitKey.dataset.suit === suit));
    }
    for (const rankKey of pad.querySelectorAll("[data-rank]")) {
      const rank = rankKey.dataset.rank;
      rankKey.disabled = full || (running ? !runTo(rank) : !left(rank + suit));
      rankKey.setAttribute("aria-label",
        `${running ? "Run to" : "Add"} ${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`);
    }
    pad.querySelector("[data-card]").disabled = full || !left("JK");
    runKey.disabled = !from || full;
    runKey.setAttribute("aria-pressed", String(running));
    runKey.setAttribute("aria-label", from && !full ? "Run from " + cardName(from) : "Run");
    const next = again();
    againKey.disabled = !next;
    againKey.textContent = next ? shortName(next) : "=";
    againKey.classList.toggle("suit-red", /[HD]$/.test(next || ""));
    againKey.setAttribute("aria-label", (next ? cardName(parse(next)) + ", " : "") + "same rank, next suit");
    undoKey.disabled = !active.cards.length && !undoElsewhere();
    const before = around(active, -1, takesCards);
    const after = around(active, 1, takesCards);
    prevKey.disabled = !before;
    nextKey.disabled = !after;
    prevKey.setAttribute("aria-label", "Previous player" + (before ? ": " + before.name : ""));
    nextKey.setAttribute("aria-label", "Next player" + (after ? ": " + after.name : ""));
  }

  // Reads every input, then redraws chips, points and the pad: a round has at
  // most a few dozen cards, so redrawing everything stays cheap.
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

  // While the pad is open, the page keeps room for it at the bottom, so that
  // everything can be scrolled above it.
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

  // Opens the pad on ``row`` (null closes it), its whole box in view above the
  // pad; ``moved`` says who it moved on from. Only a tap calls this: scrolling
  // never moves the pad to another player.
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

  // The active player is done: on to the next one in playing order who still
  // needs cards, or, after the last, the pad closes and Save comes into view.
  function moveOn() {
    const done = active;
    const next = done && around(done, 1, needsCards);
    if (next) {
      activate(next, `\u2713 ${done.name} done \u00b7 now ${next.name}`);
      return;
    }
    const focused = pad.contains(document.activeElement);
    activate(null);
    const actions = form.querySelector(".round-actions");
    actions.scrollIntoView({block: "nearest"});
    if (focused) actions.querySelector("[type=submit]").focus({preventScroll: true});
  }

  // On an empty hand, undo goes back to the hand the pad's last card went into
  // (the pad may have moved on from it by itself) and takes that card off.
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

  // Choosing an outcome opens the pad for that player (a Tien Hu or no
  // passport hand at once); choosing Hu for the pad's player moves it on.
  form.addEventListener("change", (event) => {
    const row = rowOf(event.target);
    if (!row || !event.target.closest(".round-outcomes")) return;
    if (takesCards(row)) activate(row);
    else if (row === active) moveOn();
    else refresh();
  });

  for (const row of rows) row.add.hidden = false;
  refresh();
  const first = rows.find(needsCards);
  if (form.hasAttribute("data-autostart") && first) activate(first);
}
