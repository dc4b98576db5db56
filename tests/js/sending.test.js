// The queue's send protocol: order, stops, verdicts, retries, the round a
// form follows on to. (The pages that show it: tests/e2e/test_offline_queue.py.)
import assert from "node:assert/strict";
import {test} from "node:test";

import {body, field, following, retryDelay, sendInOrder, verdict} from
  "../../static/js/core/sending.js";

/** @typedef {import("../../static/js/core/store.js").Item} Item */

/** @returns {Item} */
const item = (/** @type {number} */ id, board = "/sessions/1", refused = false) => ({
  id, board, url: `${board}/rounds/new`, number: id, version: 10 + id,
  fields: [["key", `k${id}`], ["number", String(id)]], at: 0, refused,
});

/** Sends through answers given by id; records what was sent. */
function server(/** @type {Record<number, import("../../static/js/core/sending.js").Verdict>} */ answers) {
  /** @type {number[]} */
  const asked = [];
  const send = async (/** @type {Item} */ sent) => {
    asked.push(sent.id ?? 0);
    return answers[sent.id ?? 0] ?? "saved";
  };
  return {asked, send};
}

test("rounds go in order; a session stops at its first not saved, others go on", async () => {
  const items = [item(1), item(2, "/sessions/2"), item(3), item(4, "/sessions/2")];
  const {asked, send} = server({1: "later"});
  /** @type {Item[]} */
  const sent = [];
  const result = await sendInOrder(items, send, {sent});
  assert.deepEqual(asked, [1, 2, 4]);
  assert.deepEqual(sent.map((saved) => saved.id), [2, 4]);
  assert.equal(result.sent, sent);
  assert.equal(result.later, true);
  assert.equal(result.refused, null);
});

test("a refused round waits for its form to be seen; the ones after it wait too", async () => {
  const items = [item(1, "/sessions/1", true), item(2), item(3, "/sessions/2")];
  const {asked, send} = server({});
  const result = await sendInOrder(items, send);
  assert.deepEqual(asked, [3]);
  assert.equal(result.later, false);
  const again = server({1: "refused"});
  const shown = await sendInOrder(items, again.send, {only: 1});
  assert.deepEqual(again.asked, [1]);  // its form comes back: nothing after it goes
  assert.equal(shown.refused?.id, 1);
});

test("a round the worker was refused goes again from a page, to be shown there", async () => {
  const untold = {...item(1, "/sessions/1", true), told: false};
  const items = [untold, item(2), {...item(3, "/sessions/2", true), told: true}];
  const worker = server({1: "refused"});
  await sendInOrder(items, worker.send);  // it cannot show it: sends past it
  assert.deepEqual(worker.asked, []);
  const page = server({1: "refused"});
  const shown = await sendInOrder(items, page.send, {untold: true});
  assert.deepEqual(page.asked, [1]);
  assert.equal(shown.refused?.id, 1);
});

test("what the server's answer says", () => {
  const answer = (redirected = false, status = 200) => verdict({redirected, status,
    ok: status < 300});
  assert.equal(answer(true), "saved");
  for (const status of [500, 502, 403, 429]) assert.equal(answer(false, status), "later");
  for (const status of [200, 400, 404, 409]) assert.equal(answer(false, status), "refused");
  assert.equal(answer(true, 403), "later");  // redirected to a sign-in page that refused
});

test("retries wait longer after each failure, up to 30 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 50].map(retryDelay),
    [2000, 4000, 8000, 15000, 30000, 30000, 30000]);
});

test("a round is sent as typed, with a fresh CSRF token if there is one", () => {
  const kept = item(1);
  kept.fields.push(["csrf_token", "old"]);
  assert.equal(body(kept, "new").get("csrf_token"), "new");
  assert.equal(body(kept, null).get("csrf_token"), "old");
  assert.equal(field(kept, "key"), "k1");
  assert.equal(field(kept, "nothing"), undefined);
});

test("a new round's form follows on past the rounds that wait before it", () => {
  const items = [item(1), item(2), item(3, "/sessions/2"), item(4, "/sessions/1", true)];
  assert.deepEqual(following(items, "/sessions/1", 11), {number: 3, version: 13});
  assert.deepEqual(following(items, "/sessions/1", 12), {number: 3, version: 13});
  assert.equal(following(items, "/sessions/1", 13), null);  // made after them
  assert.equal(following(items, "/sessions/3", 1), null);
});
