// The language switch (every page's footer, and the worker's offline page),
// on the phone: it sets the phone's language cookie itself, tells the
// service worker, and opens the page again, from the network in that
// language or, offline, from the worker's copy kept in it (or its offline
// page in it). offline.js loads this where the worker controls the page or
// there is no network; elsewhere the form is sent, and the server sets the
// cookie. With no network and no worker the cookie is set for the next page
// (README.md, "Languages").

// No imports: the offline page, served at any address, has no import map.
const LANGUAGE = "phone-language";  // core/names.js's, as the worker reads it

// A switch with no CSRF token (the worker's offline page, the same for
// every phone: it loads this module itself) can only switch here.
/** @type {HTMLFormElement | null} */
const tokenless = document.querySelector("form.language-switch:not(:has([name=csrf_token]))");
tokenless?.addEventListener("submit", (event) => {
  event.preventDefault();
  switchHere(tokenless, /** @type {HTMLButtonElement} */ (/** @type {SubmitEvent} */ (event).submitter).value);
});

/**
 * Switches the phone to the language ``tag`` (the switch ``form`` says the cookie's name,
 * path and life).
 * @param {HTMLFormElement} form @param {string} tag
 */
export async function switchHere(form, tag) {
  const worker = navigator.serviceWorker?.controller;
  const {cookie, path, days} = form.dataset;
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${cookie}=${encodeURIComponent(tag)}; path=${path}; ` +
    `max-age=${Number(days) * 24 * 3600}; samesite=lax${secure}`;
  for (const button of form.querySelectorAll("button")) {
    if (button.value === tag) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  if (!worker) return;  // offline with no copies to show: the next page comes in it
  await new Promise((told) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = told;
    worker.postMessage({[LANGUAGE]: tag}, [channel.port2]);
  });
  const next = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("next"));
  location.replace(next?.value || location.href);
}
