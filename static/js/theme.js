// The theme (web/theme.py), a classic script run in <head> before the page
// shows: dark.css's media set from the `theme` cookie, for a page the service
// worker kept under another choice; again on `theme:change` (theme-switch.js)
// and as a page is shown again from the back-forward cache. No imports: it
// runs before the page's import map, and on the worker's offline page.
// The media are web/theme.py's MEDIA.
(() => {
  const sheet = /** @type {HTMLLinkElement | null} */ (document.getElementById("theme-dark"));
  const show = () => {
    const choice = /(?:^|; )theme=(light|dark)(?:;|$)/.exec(document.cookie)?.[1];
    sheet.media = {light: "not all", dark: "all"}[choice] || "(prefers-color-scheme: dark)";
  };
  if (sheet) {
    show();
    addEventListener("pageshow", show);
    addEventListener("theme:change", show);
  }
})();
