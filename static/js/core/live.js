// What a live page makes of its stream's states (web/live.py): whether a
// state is news to the page, and whether an open form is told of it.

/**
 * A state as a stream sends it: a session's (its version, its draft's, and
 * whether the change that took the version was this phone's own), or a
 * group's sessions in play (`playing`, the home page's).
 * @typedef {{version?: number, draft?: number, playing?: string, own?: boolean}} LiveState
 */

/**
 * What a page was built on (its body's data-live-*): a session's version and
 * draft version, and whether it shows the round being entered (`hands`); or
 * the group's sessions in play.
 * @typedef {{version: number, draft: number, hands: boolean, playing?: string}} Seen
 */

/**
 * A session's later version (versions only go up: an older state is no
 * news), or a later draft where the page shows the round being entered; a
 * group's sessions in play other than the page's.
 * @param {LiveState} state @param {Seen} seen
 */
export function isNews(state, seen) {
  if (seen.playing !== undefined) return state.playing !== seen.playing;
  return (state.version ?? 0) > seen.version || seen.hands && (state.draft ?? 0) > seen.draft;
}

/**
 * Whether an open form says what changed (live-notice.js) on a state of its
 * session: not if the form is made at that version already (queue.js moved
 * it on past the rounds it sent), nor for this phone's own change, the one
 * version after `known`, the last one the page knew. A state several versions
 * on is told even if the last change was this phone's: one between may have
 * been another's (the notice names each change's phone).
 * @param {LiveState} state @param {number} known @param {number} formVersion
 */
export function noticeDue(state, known, formVersion) {
  const version = state.version ?? 0;
  if (version <= formVersion) return false;
  return !(state.own && version === known + 1);
}
