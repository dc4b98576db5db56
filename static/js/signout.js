// Sign-out (groups/settings.html): what this phone keeps of the group goes
// first, the pages the worker kept and the rounds kept to be sent (queue.js),
// then the form is sent. With no network it is not, and the form says so
// (its data-forget); offline.js leaves a form stopped here alone.

const form = document.querySelector("form[data-forget]");
const queue = document.querySelector("script[data-queue]").dataset.queue;

function notSent() {
  form.querySelector(".offline-unsent")?.remove();
  const note = document.createElement("p");
  note.className = "offline-unsent";
  note.setAttribute("role", "alert");
  note.textContent = form.dataset.forget;
  form.append(note);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  import(queue).then((kept) => kept.forget()).catch(() => {})
    .finally(() => (navigator.onLine ? form.submit() : notSent()));
});

// Sent, but the worker found no network (its 204 kept this page).
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data === "not-sent") notSent();
});
