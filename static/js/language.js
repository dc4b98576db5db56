// The language switch (every page's footer, and the worker's offline page).
// Online, a plain form: the server sets the phone's language cookie and goes
// back to the page. Offline, or on the offline page (whose form, the same for
// every phone, has no CSRF token), this sets the cookie itself, tells the
// service worker, and opens the page again: from the worker's copy kept in
// that language, or its offline page in it (README.md, "Languages").

// No imports: the offline page, served at any address, has no import map.
const LANGUAGE = "phone-language";  // core/names.js's, as the worker reads it

document.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches("form.language-switch")) return;
  if (navigator.onLine && form.elements.namedItem("csrf_token")) return;  // the server switches
  event.preventDefault();
  const button = /** @type {HTMLButtonElement} */ (event.submitter);
  switchHere(form, button.value);
}, true);  // before offline.js, which would say the form was not sent

async function switchHere(form, tag) {
  const {cookie, path, days} = form.dataset;
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${cookie}=${encodeURIComponent(tag)}; path=${path}; ` +
    `max-age=${Number(days) * 24 * 3600}; samesite=lax${secure}`;
  for (const button of form.querySelectorAll("button")) {
    if (button.value === tag) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  const worker = navigator.serviceWorker?.controller;
  if (!worker) return;  // no copies to show: the next page opened online comes in it
  await new Promise((told) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = told;
    worker.postMessage({[LANGUAGE]: tag}, [channel.port2]);
  });
  const next = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("next"));
  location.replace(next?.value || location.href);
}
