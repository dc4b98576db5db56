// Progressive enhancement for the sessions pages; every page works without it.

import {find} from "./dom.js";

// New session: a preset fills the house rules at once ("As last time" its
// currency too, and its summary shows only while it is chosen), the
// first-dealer list shows the typed names, and a tap on a known name seats
// that player.
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

  const seats = /** @type {HTMLInputElement[]} */ ([...newForm.querySelectorAll(".new-seat")]);
  /** @type {HTMLSelectElement} */
  const dealer = field("first_dealer");
  const picks = [...newForm.querySelectorAll(".new-pick")];
  const seatOf = (name) => seats.find((s) => s.value.trim().toLowerCase() === name.toLowerCase());
  const refresh = () => {
    seats.forEach((seat, i) => {
      const name = seat.value.trim();
      dealer.options[i + 1].textContent = `Seat ${i + 1}` + (name ? `: ${name}` : "");
    });
    for (const pick of picks) pick.setAttribute("aria-pressed", String(Boolean(seatOf(pick.textContent))));
  };
  for (const pick of picks) {
    pick.addEventListener("click", () => {
      const seat = seatOf(pick.textContent) || seats.find((s) => !s.value.trim());
      if (!seat) return;
      seat.value = seat.value.trim() ? "" : pick.textContent;
      refresh();
    });
  }
  if (picks.length) find(".new-known", newForm).hidden = false;
  newForm.addEventListener("input", refresh);
  refresh();
}

// Players: leaving takes a second tap to confirm.
for (const form of document.querySelectorAll(".board-leave")) {
  form.addEventListener("submit", (event) => {
    const name = form.querySelector(".board-seat-name").textContent;
    if (!window.confirm(`${name} leaves the table?`)) event.preventDefault();
  });
}
