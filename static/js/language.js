// The language switch (every page's footer, and the worker's offline page).
// Where the service worker controls the page, this switches: it sets the
// phone's language cookie itself, tells the worker, and opens the page again,
// from the network in that language or, offline, from the worker's copy kept
// in it (or its offline page in it). Elsewhere the form is sent, and the
// server sets the cookie; with no network and no worker the cookie is set for
// the next page (README.md, "Languages").

// No imports: the offline page, served at any address, has no import map.
const LANGUAGE = "phone-language";  // core/names.js's, as the worker reads it

document.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches("form.language-switch")) return;
  const worker = navigator.serviceWorker?.controller;
  // The server switches, where it can be reached and the form can be sent.
  if (!worker && navigator.onLine && form.elements.namedItem("csrf_token")) return;
  event.preventDefault();  // before offline.js, which would say the form was not sent
  const button = /** @type {HTMLButtonElement} */ (event.submitter);
  switchHere(form, button.value, worker);
}, true);

async function switchHere(form, tag, worker) {
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
