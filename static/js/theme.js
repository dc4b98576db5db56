// The theme (web/theme.py), a classic script run in <head> before the page
// shows: dark.css's media and the page's color-scheme set from the `theme`
// cookie, for a page the service worker kept under another choice; and the
// switch in the footer, on the page itself (online or not): it sets the
// cookie as the server would and switches at once. No imports: it runs
// before the page's import map, and on the worker's offline page.
(() => {
  const sheet = /** @type {HTMLLinkElement | null} */ (document.getElementById("theme-dark"));
  if (!sheet) return;
  const {cookie, path, days} = sheet.dataset;
  /** @type {Record<string, string>} */
  const media = JSON.parse(sheet.dataset.media || "{}");
  /** @type {Record<string, string>} */
  const schemes = JSON.parse(sheet.dataset.schemes || "{}");
  const AUTO = "auto";

  /** The choice the cookie holds: anything else is as the phone. */
  const chosen = () => {
    const value = document.cookie.split("; ").find((each) => each.startsWith(cookie + "="))
      ?.slice(cookie.length + 1);
    return value && value !== AUTO && value in media ? value : AUTO;
  };

  /** @param {string} choice */
  const mark = (choice) => {
    for (const button of document.querySelectorAll("form.theme-switch button[name=theme]")) {
      if (/** @type {HTMLButtonElement} */ (button).value === choice) {
        button.setAttribute("aria-current", "true");
      } else {
        button.removeAttribute("aria-current");
      }
    }
  };

  /** @param {string} choice */
  const show = (choice) => {
    sheet.media = media[choice];
    document.querySelector("meta[name=color-scheme]")?.setAttribute("content", schemes[choice]);
    document.documentElement.dataset.theme = choice;
    mark(choice);
  };

  /** @param {string} choice */
  const keep = (choice) => {
    const secure = location.protocol === "https:" ? "; secure" : "";
    const life = choice === AUTO ? 0 : Number(days) * 24 * 3600;
    document.cookie = `${cookie}=${choice}; path=${path}; max-age=${life}; samesite=lax${secure}`;
  };

  show(chosen());
  document.addEventListener("DOMContentLoaded", () => mark(chosen()));
  // Another tab switched: a page shown again from the back-forward cache follows.
  window.addEventListener("pageshow", () => show(chosen()));
  document.addEventListener("submit", (event) => {
    const form = /** @type {HTMLFormElement} */ (event.target);
    const button = /** @type {SubmitEvent} */ (event).submitter;
    if (!form.matches("form.theme-switch") || !(button instanceof HTMLButtonElement)) return;
    event.preventDefault();
    keep(button.value);
    show(button.value);
  });
})();
