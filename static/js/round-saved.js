// A round filled in together that another phone saved (README.md, issue 25),
// loaded by together.js when it sees that: one card across the bottom of the
// screen says which round, from which phone, and links its result; the pad
// closes. A hand typed here and not in the saved round stays on the form, and
// the card says so; it is kept on the phone (LEFT) for the session's result
// pages too, to copy or to edit the round with (round-left.js): nothing typed
// is lost. The card rather than going to the result by itself: a thumb about
// to tap a key would land on the result page's buttons.

import {written} from "./core/cards.js";
import {LEFT} from "./core/names.js";
import {find, make, tell} from "./dom.js";
import {gettext} from "./strings.js";

/** @type {HTMLFormElement} */
const form = find("form.round-form");
const STATE = find("#together").dataset.state;
const LABELS = JSON.parse(form.dataset.outcomes);  // the outcomes' words (the server's)
let card = null;
let latest = 0;  // the round the card is about
let kept = null;  // the hands typed here and not in the form's round, once known

// The round as saved: its page, the phone that saved it, its hands (web/drafts.py).
async function saved(number) {
  const since = /** @type {HTMLInputElement} */ (form.elements.namedItem("version")).value;
  try {
    const response = await fetch(`${STATE}/saved/${number}?since=${since}`,
                                 {credentials: "same-origin", headers: {Accept: "application/json"}});
    return response.ok ? await response.json() : null;
  } catch {
    return null;  // no network: the card says what it knows
  }
}

// Each hand typed here (an outcome other than dead, or cards) that round
// ``round`` does not hold: its player's name and the hand in words.
function notIn(round) {
  const left = [];
  for (const section of form.querySelectorAll(".round-player")) {
    const id = /** @type {HTMLElement} */ (section).dataset.player;
    const outcome = /** @type {HTMLInputElement} */ (
      section.querySelector(".round-outcomes input:checked"))?.value || "dead";
    /** @type {HTMLInputElement} */
    const input = find(".round-cards input", section);
    const cards = outcome === "hu" ? "" : input.value.trim();
    const there = round?.hands[id];
    if ((outcome === "dead" && !cards) ||
        (there && there.outcome === outcome && written(there.cards) === written(cards))) continue;
    const name = find(".round-player-head h2", section).textContent;
    left.push({name, hand: LABELS[outcome] + (cards ? ", " + cards : "")});
  }
  return left;
}

// Kept for the result pages (round-left.js), for as long as this tab lives.
function keepLeft(number, round) {
  try {
    sessionStorage.setItem(LEFT + form.dataset.session, JSON.stringify({
      number, url: round?.url ?? null, edit: round?.edit ?? null,
      hands: kept.map(({name, hand}) => `${name}: ${hand}`)}));
  } catch {
    // storage refused: the form still holds them
  }
}

function draw(number, round, typedFor) {
  card ||= make("section", "round-saved");
  card.setAttribute("role", "alert");
  card.setAttribute("aria-labelledby", "round-saved-title");
  const title = make("h2", "", round?.phone
    ? gettext("Round %(number)s saved from %(phone)s", {number, phone: round.phone})
    : gettext("Round %(number)s saved", {number}));
  title.id = "round-saved-title";
  const link = make("a", "button", gettext("See the result"));
  link.href = round?.url || new URL(String(number), form.action).href;  // rounds/12 is beside rounds/new
  card.replaceChildren(title);
  if (kept.length) {
    const hands = kept.map(({name, hand}) => `${name} (${hand})`).join("; ");
    card.append(make("p", "", gettext("Typed here and not in round %(number)s: %(hands)s. It stays on this form, below, and on the results, to copy.",
                                      {number: typedFor, hands})));
  }
  card.append(link);
  if (!card.isConnected) document.body.append(card);
  // Everything scrolls clear of the card.
  document.body.style.paddingBottom = card.offsetHeight + "px";
}

// Its stylesheet, beside this module's folder (rounds/new.html links none for it).
const style = Object.assign(make("link"), {rel: "stylesheet",
  href: new URL("../css/round-saved.css", import.meta.url).href});
document.head.append(style);

/**
 * Round ``number``, the form's, saved: the card for the last round saved
 * (``state``: the draft's state, web/drafts.py), once each.
 * @param {number} number @param {{number: number}} state
 */
export async function show(number, state) {
  const now = state.number - 1;
  if (now <= latest) return;
  latest = now;
  tell(form, "pad:close");
  document.body.classList.add("round-saved-on");  // the card says it: no notice (its CSS)
  // Who is in, and the choices between two phones' hands, are over.
  for (const over of document.querySelectorAll(".together-strip, .together-ask")) over.remove();
  const round = await saved(now);
  if (kept === null) {
    const formsRound = now === number ? round : await saved(number);
    kept = notIn(formsRound);
    if (kept.length) keepLeft(number, formsRound);
  }
  if (now === latest) draw(now, round, number);
}
