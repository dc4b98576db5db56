// What a live page makes of its stream's states (static/js/core/live.js).
import assert from "node:assert/strict";
import {test} from "node:test";

import {isNews, noticeDue} from "../../static/js/core/live.js";

const page = {version: 7, draft: 3, hands: false};

test("a session's page takes a later version as news, never an older one", () => {
  assert.equal(isNews({version: 8, draft: 3, own: false}, page), true);
  assert.equal(isNews({version: 7, draft: 3, own: false}, page), false);
  assert.equal(isNews({version: 6, draft: 9, own: false}, page), false);
});

test("a hand saved is news only to a page showing the round being entered", () => {
  assert.equal(isNews({version: 7, draft: 4}, page), false);
  assert.equal(isNews({version: 7, draft: 4}, {...page, hands: true}), true);
  assert.equal(isNews({version: 7, draft: 2}, {...page, hands: true}), false);
});

test("the home page takes any other set of sessions in play as news", () => {
  const home = {version: NaN, draft: NaN, hands: false, playing: "3.4.0"};
  assert.equal(isNews({playing: "3.4.0", own: false}, home), false);
  assert.equal(isNews({playing: "3.4.1", own: false}, home), true);  // a hand in
  assert.equal(isNews({playing: "3.4.0 9.1.0", own: false}, home), true);  // one started
  assert.equal(isNews({playing: "", own: false}, home), true);  // ended
});

test("an open form is told of another phone's change, not of its own", () => {
  assert.equal(noticeDue({version: 8, own: false}, 7, 7), true);
  assert.equal(noticeDue({version: 8, own: true}, 7, 7), false);
});

test("an own change after another's leaves the notice as it is", () => {
  // Another phone's version 8 was told; this phone's own 9 tells nothing more.
  assert.equal(noticeDue({version: 9, own: true}, 8, 7), false);
  assert.equal(noticeDue({version: 10, own: false}, 9, 7), true);
});

test("several versions on, the changes are told even if the last was this phone's", () => {
  assert.equal(noticeDue({version: 9, own: true}, 7, 7), true);
});

test("a form moved on past this phone's own rounds (queue.js) is told nothing", () => {
  assert.equal(noticeDue({version: 9, own: true}, 7, 9), false);
  assert.equal(noticeDue({version: 9, own: false}, 7, 9), false);
});
