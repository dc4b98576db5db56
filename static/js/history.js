// Show the chosen player's sessions as soon as one is picked.
import {find} from "./dom.js";

/** @type {HTMLSelectElement} */
const player = find("#player");
player.addEventListener("change", () => player.form.submit());
