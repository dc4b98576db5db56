// The theme switch (web/theme.py), on the pages whose footer holds it: it
// switches on the page, online or not, setting the `theme` cookie as the
// server would (a year; none for "auto", as the phone) and telling theme.js,
// which shows it at once; and it marks the choice the cookie holds (on a
// page the service worker kept under another choice).

const COOKIE = "theme";
const DAYS = 365;
const form = /** @type {HTMLFormElement | null} */ (document.querySelector("form.theme-switch"));

const mark = () => {
  const choice = new RegExp(`(?:^|; )${COOKIE}=(light|dark)(?:;|$)`).exec(document.cookie)?.[1];
  for (const button of form.querySelectorAll("button")) {
    button.ariaCurrent = button.value === (choice || "auto") ? "true" : null;
  }
};

if (form) {
  mark();
  addEventListener("pageshow", mark);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const choice = /** @type {HTMLButtonElement} */ (event.submitter).value;
    const life = choice === "auto" ? 0 : DAYS * 24 * 3600;
    const secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${COOKIE}=${choice}; path=${form.dataset.path}; max-age=${life}; ` +
      `samesite=lax${secure}`;
    dispatchEvent(new Event("theme:change"));
    mark();
  });
}
