// Tap-to-add card entry for the round form: a card pad docked at the bottom,
// chips that a tap removes, live points. Progressive enhancement: each
// player's text input stays the source of truth, and the server recomputes.
(function () {
  "use strict";
  var form = document.querySelector("form.round-form");
  var pad = document.getElementById("card-pad");
  if (!form || !pad) return;

  var PACKS = Number(form.dataset.packs);
  var JOKERS = Number(form.dataset.jokers);
  var JOKER_POINTS = Number(form.dataset.jokerPoints);
  var DEALT = Number(form.dataset.dealt);

  var RANKS = {A: 1, T: 10, J: 11, Q: 12, K: 13};
  for (var r = 2; r <= 10; r++) RANKS[String(r)] = r;
  var LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"};
  var RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king"};
  var SYMBOLS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  var SUIT_OF = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                 "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"};
  var JOKER_WORDS = ["JK", "JOKER", "\u2605", "\uD83C\uDCCF"];
  var has = Object.prototype.hasOwnProperty;

  // Mirrors scorekeeper.rules.cards.parse_card; null for an unreadable token.
  function parse(token) {
    var text = token.replace(/\uFE0F/g, "").trim().toUpperCase();
    if (JOKER_WORDS.indexOf(text) >= 0) return {key: "JK", points: JOKER_POINTS};
    var chars = Array.from(text);
    var last = chars.pop() || "";
    var suit = has.call(SUIT_OF, last) ? SUIT_OF[last] : last;
    var rankText = chars.join("");
    if (!has.call(RANKS, rankText) || !suit || "SHDC".indexOf(suit) < 0) return null;
    var rank = RANKS[rankText];
    var label = LABELS[rank] || String(rank);
    return {key: label + suit, label: label, suit: suit,
            points: rank === 1 ? 15 : Math.min(rank, 10)};
  }

  function cardName(card) {
    if (card.key === "JK") return "joker";
    return (RANK_NAMES[card.label] || card.label) + " of " + SUIT_NAMES[card.suit];
  }

  function tokens(input) {
    return input.value.split(/[\s,;]+/).filter(Boolean);
  }

  var rows = Array.prototype.map.call(form.querySelectorAll(".round-player"), function (section) {
    return {
      section: section,
      name: section.querySelector("h2").textContent,
      input: section.querySelector(".round-cards input"),
      box: section.querySelector(".round-cards"),
      chips: section.querySelector(".round-chips"),
      add: section.querySelector(".round-add"),
      points: section.querySelector(".round-points"),
      radios: section.querySelectorAll(".round-outcomes input"),
      cards: []
    };
  });
  var suitKeys = pad.querySelectorAll("[data-suit]");
  var rankKeys = pad.querySelectorAll("[data-rank]");
  var jokerKey = pad.querySelector("[data-card]");
  var undoKey = document.getElementById("card-pad-undo");
  var active = null;
  var suit = "S";

  function outcomeOf(row) {
    for (var i = 0; i < row.radios.length; i++) {
      if (row.radios[i].checked) return row.radios[i].value;
    }
    return "dead";
  }

  function rowOf(element) {
    var section = element.closest(".round-player");
    return rows.filter(function (row) { return row.section === section; })[0] || null;
  }

  function summary(row, total, bad) {
    var outcome = outcomeOf(row);
    if (outcome === "hu") return "Hu \u00b7 0 pts";
    var n = row.cards.length - bad;
    var text = outcome === "dead" ? n + (n === 1 ? " card" : " cards") : n + " of " + DEALT + " cards";
    if (outcome !== "tien_hu") text += " \u00b7 " + total + " pts";
    if (bad) text += " \u00b7 " + bad + " unreadable";
    return text;
  }

  function renderRow(row, counts) {
    var total = 0;
    var bad = 0;
    row.chips.textContent = "";
    row.cards.forEach(function (item, index) {
      var chip = document.createElement("button");
      var card = item.card;
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
        chip.setAttribute("aria-label", "Remove " + item.token + " (not a card)");
      }
      row.chips.appendChild(chip);
    });
    row.chips.hidden = !row.cards.length;
    row.points.hidden = false;
    row.points.textContent = summary(row, total, bad);
  }

  function renderPad(counts) {
    rows.forEach(function (row) {
      row.section.classList.toggle("round-player-active", row === active);
      row.add.setAttribute("aria-pressed", String(row === active));
    });
    pad.hidden = !active;
    if (!active) return;
    document.getElementById("card-pad-player").textContent = active.name;
    document.getElementById("card-pad-points").textContent = active.points.textContent;
    var full = active.cards.length >= DEALT;
    suitKeys.forEach(function (key) {
      key.setAttribute("aria-pressed", String(key.dataset.suit === suit));
    });
    rankKeys.forEach(function (key) {
      var rank = key.dataset.rank;
      key.disabled = full || (counts[rank + suit] || 0) >= PACKS;
      key.setAttribute("aria-label", "Add " + (RANK_NAMES[rank] || rank) + " of " + SUIT_NAMES[suit]);
    });
    jokerKey.disabled = full || (counts.JK || 0) >= JOKERS;
    jokerKey.setAttribute("aria-label", "Add a joker");
    undoKey.disabled = !active.cards.length;
  }

  // Reads every input, then redraws chips, points and the pad: a round has at
  // most a few dozen cards, so redrawing everything stays cheap.
  function refresh() {
    var counts = {};
    rows.forEach(function (row) {
      var hu = outcomeOf(row) === "hu";
      row.input.disabled = hu;  // a Hu player has no cards: nothing is posted
      row.box.hidden = hu;
      row.cards = hu ? [] : tokens(row.input).map(function (token) {
        return {token: token, card: parse(token)};
      });
      row.cards.forEach(function (item) {
        if (item.card) counts[item.card.key] = (counts[item.card.key] || 0) + 1;
      });
    });
    if (active && outcomeOf(active) === "hu") active = null;
    rows.forEach(function (row) { renderRow(row, counts); });
    renderPad(counts);
  }

  function activate(row, scroll) {
    active = row && outcomeOf(row) !== "hu" ? row : null;
    refresh();
    var room = active ? pad.offsetHeight + "px" : "";
    form.style.paddingBottom = room;
    document.documentElement.style.scrollPaddingBottom = room;
    if (active && scroll) active.section.scrollIntoView({block: "nearest"});
    if (active) follow();
  }

  // The pad follows the scroll: once its player's box is wholly off the
  // screen (or under the pad), cards go to the player most in view, whose
  // name the pad then shows, rather than to someone nobody can see.
  var inView = new Map();
  var watcher = null;
  function follow() {
    if (watcher || !("IntersectionObserver" in window)) return;
    watcher = new IntersectionObserver(function (seen) {
      seen.forEach(function (entry) { inView.set(entry.target, entry.intersectionRatio); });
      if (!active || inView.get(active.section) > 0) return;
      var best = null;
      rows.forEach(function (row) {
        var ratio = inView.get(row.section) || 0;
        if (ratio > 0 && outcomeOf(row) !== "hu" && (!best || ratio > inView.get(best.section))) {
          best = row;
        }
      });
      if (best) activate(best, false);
    }, {rootMargin: "0px 0px -" + pad.offsetHeight + "px 0px", threshold: [0, 0.25, 0.5, 0.75, 1]});
    rows.forEach(function (row) { watcher.observe(row.section); });
  }

  function setTokens(row, list) {
    row.input.value = list.join(" ");
    refresh();
  }

  function addCard(key) {
    if (!active) return;
    setTokens(active, tokens(active.input).concat([key]));
  }

  form.addEventListener("click", function (event) {
    var target = event.target;
    var chip = target.closest(".round-chip");
    var row = rowOf(target);
    if (chip && row) {
      var list = tokens(row.input);
      list.splice(Number(chip.dataset.index), 1);
      setTokens(row, list);
      if (row !== active) activate(row, false);
    } else if (target.closest(".round-add")) {
      activate(row, true);
    } else if (target.closest("#card-pad-done")) {
      activate(null);
    } else if (target.closest("[data-suit]")) {
      suit = target.closest("[data-suit]").dataset.suit;
      refresh();
    } else if (target.closest("[data-card]")) {
      addCard("JK");
    } else if (target.closest("[data-rank]")) {
      addCard(target.closest("[data-rank]").dataset.rank + suit);
    } else if (target.closest("#card-pad-undo")) {
      if (active) setTokens(active, tokens(active.input).slice(0, -1));
    } else if (row && !target.closest("input, label, a, button")) {
      activate(row, false);
    }
  });

  form.addEventListener("input", function (event) {
    if (event.target.closest(".round-cards")) refresh();
  });

  form.addEventListener("change", function (event) {
    var row = rowOf(event.target);
    if (!row || !event.target.closest(".round-outcomes")) return;
    if (outcomeOf(row) === "hu") {
      if (row === active) activate(null); else refresh();
    } else {
      activate(row, true);
    }
  });

  rows.forEach(function (row) { row.add.hidden = false; });
  var first = rows.filter(function (row) { return outcomeOf(row) !== "hu"; })[0];
  if (form.hasAttribute("data-autostart") && first) activate(first, false);
  else refresh();
})();
