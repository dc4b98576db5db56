// Keep the screen on while a session is open (Screen Wake Lock API), unless
// the switch is off; the choice is remembered on this phone. The lock goes
// when the page is hidden, so it is asked for again when the page shows.
// Where the API is missing (or without this script) the switch stays hidden.
"use strict";

const KEY = "scorekeeper.keepScreenOn";
const bar = document.querySelector(".wake");

// Some browsers refuse storage (private modes): the switch then forgets.
function remembered() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

function remember(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // nothing to do: on by default next time
  }
}

if (bar && "wakeLock" in navigator) {
  const input = bar.querySelector(".wake-input");
  const status = bar.querySelector(".wake-status");
  let lock = null;
  let asking = false;

  const show = (state, message) => {
    bar.dataset.state = state;
    status.textContent = message;
  };

  const acquire = async () => {
    if (!input.checked || lock || asking || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const held = await navigator.wakeLock.request("screen");
      held.addEventListener("release", () => {
        if (lock === held) lock = null;
      });
      lock = held;
      show("on", "");
      if (!input.checked) await release();  // switched off while asking
    } catch {
      // Refused: power saving, or a browser that does not allow it here.
      show("refused", "The screen could not be kept on: it may dim as usual.");
    } finally {
      asking = false;
    }
  };

  const release = async () => {
    const held = lock;
    lock = null;
    show("off", "");
    if (held) await held.release();
  };

  input.checked = remembered();
  bar.hidden = false;
  input.addEventListener("change", () => {
    remember(input.checked);
    if (input.checked) acquire();
    else release();
  });
  document.addEventListener("visibilitychange", acquire);
  acquire();
}
