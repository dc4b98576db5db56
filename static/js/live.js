// The stream of the page's session, or of its group's sessions in play
// (web/live.py), for live-regions.js and live-notice.js.

import {isNews} from "./core/live.js";
import {find, make, tell} from "./dom.js";
import {gettext} from "./strings.js";

export const main = find("#main");

export function status(tag, id, className) {
  let line = document.getElementById(id);
  if (!line) {
    line = make(tag, className);
    line.id = id;
    line.setAttribute("role", "status");
  }
  return line;
}

export function showGone(code) {
  if (document.getElementById("live-gone")) return;
  const gone = status("p", "live-gone", "live-notice");
  gone.textContent = code === 404
    ? gettext("This was changed on another phone and is no longer here. Go back to the scoreboard.")
    : gettext("This page could not be brought up to date: reload it.");
  main.prepend(gone);
}

// Follows the stream: ``react(state, page)`` to each state that is news to
// the page (core/live.js; ``page``, what it was built on, a core Seen, which
// ``react`` moves on), one at a time; then "live:change" for any change.
export function follow(react) {
  const {live, liveVersion, liveDraft, liveHands, livePlaying} = document.body.dataset;
  if (!live || !window.EventSource) return;
  /** @type {import("./core/live.js").Seen} */
  const page = {version: Number(liveVersion), draft: Number(liveDraft),
                hands: liveHands !== undefined, playing: livePlaying};
  let source = null;
  let refreshing = Promise.resolve();
  const connect = () => {
    source = new EventSource(live);
    source.onmessage = (event) => {
      const state = JSON.parse(event.data);
      refreshing = refreshing.then(async () => {
        if (isNews(state, page)) await react(state, page);
        tell(document, "live:change", state);
      }).catch(() => showGone(0));
    };
  };
  connect();
  // A phone that slept may have had its stream closed: open it again on waking.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && source.readyState === EventSource.CLOSED) {
      connect();
    }
  });
}
