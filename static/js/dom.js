// What the page scripts share (README.md).

/** @type {<T extends Element = HTMLElement>(selector: string, root?: ParentNode) => T} */
export const find = (selector, root = document) => /** @type {any} */ (root.querySelector(selector));

/** @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {string} [className] @param {string} [text] */
export function make(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

// Events the scripts name (README.md).
export const tell = (target, name, detail) => target.dispatchEvent(new CustomEvent(name, {detail}));
export const on = (target, name, react) =>
  target.addEventListener(name, (event) => react(/** @type {CustomEvent} */ (event).detail ?? {}));

// Says on ``form`` that it was not sent, by ``button`` if it is the form's.
export function notSent(form, text, button = null) {
  form.querySelector(".offline-unsent")?.remove();
  const note = make("p", "offline-unsent", text);
  note.setAttribute("role", "alert");
  if (button && button.form === form) button.before(note);
  else form.append(note);
}
