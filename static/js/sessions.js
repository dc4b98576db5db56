// Progressive enhancement for the sessions pages; every page works without it.

import {find} from "./dom.js";
import {gettext} from "./strings.js";

// New session: a preset fills the house rules at once ("As last time" its
// currency too, and its summary shows only while it is chosen), the
// first-dealer list shows the typed names, a tap on a known name seats
// that player, and "What a round pays" follows the rules and the table.
/** @type {HTMLFormElement} */
const newForm = find(".new-form");
if (newForm) {
  const presets = JSON.parse(newForm.dataset.presets);
  const field = (name) => /** @type {any} */ (newForm.elements.namedItem(name));
  /** @type {HTMLSelectElement} */
  const preset = field("preset");
  const lastSummary = find(".new-last", newForm);
  find(".new-use-preset", newForm).hidden = true;
  preset.addEventListener("change", () => {
    for (const [name, value] of Object.entries(presets[preset.value])) {
      const input = field(name);
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    }
    if (lastSummary) lastSummary.hidden = preset.value !== "last";
  });

  // What the rules pay: the server's box (the engine's figures) for the form
  // as it is now, fetched again as anything changes; the latest answer wins.
  let asking = new AbortController();
  const showPays = async () => {
    asking.abort();
    asking = new AbortController();
    const pays = find("#new-pays", newForm);
    const query = new URLSearchParams(/** @type {any} */ (new FormData(newForm)));
    for (const name of ["csrf_token", "key"]) query.delete(name);
    try {
      const response = await fetch(`${pays.dataset.pays}?${query}`,
                                   {credentials: "same-origin", signal: asking.signal});
      if (!response.ok) return;
      const box = new DOMParser().parseFromString(await response.text(), "text/html")
        .getElementById("new-pays");
      if (box) pays.replaceWith(document.adoptNode(box));
    } catch {
      // Aborted by a later change, or no network: the box stays as it was.
    }
  };

  const seats = /** @type {HTMLInputElement[]} */ ([...newForm.querySelectorAll(".new-seat")]);
  /** @type {HTMLSelectElement} */
  const dealer = field("first_dealer");
  const picks = [...newForm.querySelectorAll(".new-pick")];
  const seatOf = (name) => seats.find((s) => s.value.trim().toLowerCase() === name.toLowerCase());
  const refresh = () => {
    seats.forEach((seat, i) => {
      const name = seat.value.trim();
      dealer.options[i + 1].textContent = name ? gettext("Seat %(seat)s: %(name)s", {seat: i + 1, name})
      : gettext("Seat %(seat)s", {seat: i + 1});
    });
    for (const pick of picks) pick.setAttribute("aria-pressed", String(Boolean(seatOf(pick.textContent))));
  };
  for (const pick of picks) {
    pick.addEventListener("click", () => {
      const seat = seatOf(pick.textContent) || seats.find((s) => !s.value.trim());
      if (!seat) return;
      seat.value = seat.value.trim() ? "" : pick.textContent;
      refresh();
      showPays();
    });
  }
  if (picks.length) find(".new-known", newForm).hidden = false;
  newForm.addEventListener("input", refresh);
  refresh();
  newForm.addEventListener("input", showPays);
  newForm.addEventListener("change", showPays);
}

// Players: leaving takes a second tap to confirm.
for (const form of document.querySelectorAll(".board-leave")) {
  form.addEventListener("submit", (event) => {
    const name = form.querySelector(".board-seat-name").textContent;
    if (!window.confirm(gettext("%(name)s leaves the table?", {name}))) event.preventDefault();
  });
}
