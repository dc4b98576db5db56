// A round filled in together: every phone sends the hands typed on it as each
// is completed, and fills in the others' rows as their hands arrive (live.js
// tells of them with a "live:change" event on document), but never over a row
// being typed here: that row then says what the other phone entered and lets
// this one choose. The strip at the top says who is in. Save posts every row,
// as on one phone; the draft version it carries tells the server which hands
// this page has seen.
(function () {
  "use strict";
  var box = document.getElementById("together");
  var form = document.querySelector("form.round-form");
  if (!box || !form || !window.fetch) return;

  var STATE = box.dataset.state;
  var NUMBER = Number(box.dataset.number);
  var LABELS = {dead: "Dead", hu: "Hu", tien_hu: "Tien Hu", no_passport: "No passport"};
  var token = form.querySelector("[name=csrf_token]").value;
  var draftField = form.querySelector("[name=draft]");
  var strip = box.querySelector(".together-strip");
  var note = document.getElementById("together-note");
  var known = null;  // the latest state read
  var asking = null;
  var askAgain = false;

  var rows = {};
  form.querySelectorAll(".round-player").forEach(function (section) {
    var id = Number(section.id.replace("player-", ""));
    var head = section.querySelector(".round-player-head");
    var says = document.createElement("div");
    says.className = "together-row";
    says.setAttribute("aria-live", "polite");
    head.parentNode.insertBefore(says, head.nextSibling);
    rows[id] = {
      id: id, section: section, says: says,
      radios: section.querySelectorAll(".round-outcomes input"),
      input: section.querySelector(".round-cards input"),
      base: 0,  // the version of the hand this row last showed or sent
      shown: {outcome: "dead", cards: ""},
      theirs: null,  // another phone's hand, waiting for this phone's choice
      mine: 0,  // the version this phone saved
      sending: false, again: false
    };
  });

  function words(cards) {
    return cards.split(/[\s,;]+/).filter(Boolean).join(" ").toUpperCase();
  }

  function typed(row) {
    var outcome = "dead";
    row.radios.forEach(function (radio) { if (radio.checked) outcome = radio.value; });
    return {outcome: outcome, cards: outcome === "hu" ? "" : row.input.value.trim()};
  }

  function same(a, b) {
    return a.outcome === b.outcome && words(a.cards) === words(b.cards);
  }

  function editing(row) {
    return !same(typed(row), row.shown) || document.activeElement === row.input;
  }

  function described(hand) {
    return LABELS[hand.outcome] + (hand.cards ? ", " + hand.cards : "");
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }

  // Show another phone's hand in the row, for cards.js to redraw (its chips
  // and points follow the input's "input" event).
  function put(row, hand) {
    row.radios.forEach(function (radio) { radio.checked = radio.value === hand.outcome; });
    row.input.value = hand.cards;
    row.shown = {outcome: hand.outcome, cards: hand.cards};
    row.base = hand.version;
    row.theirs = null;
    row.input.dispatchEvent(new Event("input", {bubbles: true}));
  }

  // A row whose hand is in (from any phone) is marked, for the pad to pass by.
  function sayRow(row, player) {
    row.section.classList.toggle("together-in", Boolean(player && player.done));
    row.says.textContent = "";
    (player ? player.problems : []).forEach(function (problem) {
      row.says.appendChild(element("p", "error", problem));
    });
    var hand = player && player.hand;
    if (row.theirs) {
      var ask = element("div", "together-ask");
      ask.appendChild(element("p", "", row.theirs.phone + " entered: " + described(row.theirs) +
        ". Yours: " + described(typed(row)) + "."));
      var theirs = element("button", "button together-theirs", "Use theirs");
      var mine = element("button", "button round-secondary together-mine", "Keep mine");
      theirs.type = mine.type = "button";
      ask.appendChild(theirs);
      ask.appendChild(mine);
      row.says.appendChild(ask);
    } else if (hand && hand.version !== row.mine) {
      row.says.appendChild(element("p", "together-from", "Entered on " + hand.phone));
    }
  }

  function sayStrip(state) {
    strip.textContent = "";
    state.players.forEach(function (player) {
      var how = player.done ? "done" : player.hand ? "check" : "waiting";
      var item = element("li", "together-" + how);
      item.dataset.player = player.id;
      item.appendChild(element("bdi", "", player.name));
      var mark = element("span", "together-mark", {done: "\u2713", check: "!", waiting: "\u2026"}[how]);
      mark.setAttribute("aria-hidden", "true");
      item.appendChild(mark);
      item.appendChild(element("span", "round-vh", {done: " in", check: " to check", waiting: " not yet"}[how]));
      strip.appendChild(item);
    });
    note.textContent = "";
    if (state.number !== NUMBER || !state.open) {
      var saved = state.open && state.number > NUMBER;
      var gone = element("p", "together-saved", !state.open ? "This session has ended."
        : saved ? "Round " + NUMBER + " is saved. "
        : "The rounds were changed on another phone: this is round " + state.number + " now. ");
      if (state.open) {
        var link = element("a", "", saved ? "See round " + NUMBER : "Enter round " + state.number);
        link.href = saved ? form.action.replace(/new$/, String(NUMBER)) : form.action;
        gone.appendChild(link);
      }
      note.appendChild(gone);
      return;
    }
    state.problems.forEach(function (problem) { note.appendChild(element("p", "error", problem)); });
    if (state.complete) {
      note.appendChild(element("p", "together-ready", "Everyone is in: tap Save round " + NUMBER + "."));
      state.warnings.forEach(function (warning) { note.appendChild(element("p", "round-warning", warning)); });
    }
  }

  // Take in a state: fill in the rows nobody is typing in here, ask about the
  // others, and say who is in.
  function take(state) {
    var first = !known;
    known = state;
    box.dataset.draft = state.draft;  // the draft version this page has taken in
    var open = state.number === NUMBER && state.open;
    state.players.forEach(function (player) {
      var row = rows[player.id];
      var hand = player.hand;
      if (!row) return;
      if (open && hand && hand.version > row.base) {
        if (same(hand, typed(row))) {
          row.shown = {outcome: hand.outcome, cards: hand.cards};
          row.base = hand.version;
          row.theirs = null;
        } else if (!editing(row)) {
          put(row, hand);
        } else {
          row.theirs = hand;
        }
      }
      sayRow(row, player);
    });
    sayStrip(state);
    var waiting = Object.keys(rows).some(function (id) { return rows[id].theirs; });
    if (open && draftField && !waiting) draftField.value = state.draft;
    if (first) sendAll();  // what was typed before the first state came
  }

  function sendAll(keepalive) {
    Object.keys(rows).forEach(function (id) { send(rows[id], keepalive); });
  }

  function ask() {
    if (asking) {
      askAgain = true;
      return;
    }
    asking = fetch(STATE, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state) take(state); })
      .catch(function () {})
      .then(function () {
        asking = null;
        if (askAgain) {
          askAgain = false;
          ask();
        }
      });
  }

  function send(row, keepalive) {
    if (!row || !known || known.number !== NUMBER || !known.open) return;
    var hand = typed(row);
    if (row.theirs || same(hand, row.shown)) return;  // waiting for a choice, or nothing new
    if (row.sending) {
      row.again = true;
      return;
    }
    row.sending = true;
    fetch(STATE + "/" + row.id, {
      method: "POST", credentials: "same-origin", keepalive: Boolean(keepalive),
      headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      body: JSON.stringify({outcome: hand.outcome, cards: hand.cards, base: row.base, number: NUMBER})
    }).then(function (response) {
      return response.json().then(function (body) { return {status: response.status, body: body}; });
    }).then(function (answer) {
      var body = answer.body;
      if (answer.status === 200) {
        row.base = row.mine = body.hand.version;
        row.shown = {outcome: body.hand.outcome, cards: body.hand.cards};
        row.theirs = null;
        if (body.recorded) {
          window.location.assign(body.recorded.url);
          return;
        }
      } else if (body.hand) {
        row.theirs = body.hand;  // another phone's, saved since: this phone chooses
      } else {
        row.says.textContent = "";
        row.says.appendChild(element("p", "error", body.error || "This hand could not be sent."));
      }
      if (body.state) take(body.state);
    }).catch(function () {
      row.says.textContent = "";
      row.says.appendChild(element("p", "error", "Not sent. It is still typed here, and Save sends it too."));
    }).then(function () {
      row.sending = false;
      if (row.again) {
        row.again = false;
        send(row);
      }
    });
  }

  function rowOf(target) {
    var section = target && target.closest && target.closest(".round-player");
    return section ? rows[Number(section.id.replace("player-", ""))] : null;
  }

  function activeRow() {
    return rowOf(form.querySelector(".round-player-active"));
  }

  // A hand is complete when its outcome is chosen (Hu needs no cards) or its
  // cards are typed (the field's change), or the pad moves on from it.
  form.addEventListener("change", function (event) {
    var row = rowOf(event.target);
    if (!row) return;
    if (event.target === row.input || typed(row).outcome === "hu" || row.input.value.trim()) send(row);
  });
  form.addEventListener("cards:done", function (event) { send(rowOf(event.target)); });
  document.addEventListener("click", function (event) {
    var pad = document.getElementById("card-pad");
    if (!pad || !pad.contains(event.target)) return;
    var before = activeRow();
    setTimeout(function () { if (before && activeRow() !== before) send(before); }, 0);
  }, true);
  form.addEventListener("click", function (event) {
    var button = event.target.closest(".together-theirs, .together-mine");
    var row = button && rowOf(button);
    if (!row || !row.theirs) return;
    var theirs = row.theirs;
    if (button.classList.contains("together-theirs")) {
      put(row, theirs);
    } else {
      row.base = theirs.version;
      row.shown = {outcome: theirs.outcome, cards: theirs.cards};
      row.theirs = null;
      send(row);
    }
    if (known) take(known);
  });
  // A phone put away may not come back: what is typed is sent as it goes.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") sendAll(true);
  });
  document.addEventListener("live:change", function (event) {
    var detail = event.detail || {};
    if (!known || detail.draft !== known.draft || detail.version !== known.version) ask();
  });
  ask();
})();
