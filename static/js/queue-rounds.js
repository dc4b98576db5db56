// What the queue (queue.js) does to a session's pages for the rounds kept on
// the phone: the scoreboard's next round and the round form after them, and
// a round sent, said. Tells "queue:follow" ({number, version}) as a new
// round's form moves on past the rounds that wait before it.

import {following} from "./core/sending.js";
import {find, make, tell} from "./dom.js";
import {gettext} from "./strings.js";

/** A round sent (store.js's Sent), said in a note made by ``say``, with its link. */
export function roundSent(item, say) {
  // Sent after another phone had saved the same round: its page says so.
  const before = new URL(item.url, location.href).searchParams.has("saved");
  const number = item.number;
  const note = say((before ? gettext("Round %(number)s, kept on this phone, had been saved from another phone: it counts once.", {number})
    : gettext("Round %(number)s, kept on this phone, is sent and saved.", {number})) + " ");
  const link = make("a", "", gettext("See round %(number)s", {number}));
  link.href = item.url;
  note.append(link);
  return note;
}

// The scoreboard as last seen (data-round: the round it shows next), with
// ``rounds`` of its session waiting: the next round is the one after those
// not refused, and who deals it waits for them.
export function boardAfter(rounds, main) {
  const last = rounds.filter((item) => !item.refused).at(-1);
  const next = last && find(".board-next[data-round]", main);
  const coming = next && Number(next.dataset.round);
  if (next && coming <= last.number) {
    next.dataset.round = last.number + 1;
    find("h2", next).textContent = gettext("Round %(number)s", {number: last.number + 1});
    for (const line of next.querySelectorAll("p")) line.remove();
    next.append(make("p", "board-waits",
                     gettext("Who deals shows once round %(number)s is sent.", {number: last.number})));
  }
  for (const link of next ? main.querySelectorAll("a[href$='/rounds/new']") : []) {
    link.textContent = gettext("Enter round %(number)s", {number: Math.max(coming, last.number + 1)});
  }
}

// A new round's form whose rounds before it wait on this phone: it is for the
// round after them (the page, kept offline, was made for the first). Not after
// one refused: that may yet be dropped.
export function follow(form, items) {
  const {number, version} = form.elements;
  const next = number && following(items, form.dataset.queue, Number(version.value));
  if (!next) return;
  number.value = next.number;
  version.value = next.version;
  const heading = gettext("Round %(number)s", {number: next.number});
  find("h1").textContent = heading;
  const app = document.title.lastIndexOf(" · ");  // the app's name, after the page's
  document.title = app < 0 ? heading : heading + document.title.slice(app);
  const order = document.querySelector(".round-order");
  if (order) {
    order.textContent = gettext("Round %(number)s waits on this phone: who deals shows once it is sent.",
                                {number: next.number - 1});
  }
  for (const button of form.querySelectorAll("button[type=submit]:not([name])")) {
    button.textContent = gettext("Save round %(number)s", {number: next.number});
  }
  tell(document, "queue:follow", next);
}
