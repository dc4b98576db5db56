// The changes kept on the phone, rounds and payments: what a form sent with
// no network is kept as, and what is said once it is sent. (The pages that
// keep and show them: tests/e2e/test_offline_queue.py, test_offline_payments.py.)
import assert from "node:assert/strict";
import {test} from "node:test";

import {isRound, kept, kindOf, news, under, withNews} from "../../static/js/core/changes.js";
import {following} from "../../static/js/core/sending.js";

/** @type {[string, string][]} */
const paying = [["csrf_token", "t"], ["key", "1764403200.abc"], ["payer_id", "1"],
                ["payee_id", "2"], ["cents", "550"]];
const shown = JSON.stringify({payer: "Ann", payee: "Ben", amount: "RM 5.50",
                              currency: "RM", undo: false});

test("a round's form is kept as a round, with its number and version", () => {
  const item = kept({url: "/sessions/1/rounds/new", queue: "/sessions/1", at: 5,
                     fields: [["key", "k"], ["number", "3"], ["version", "12"]]});
  assert.deepEqual(item, {kind: "round", board: "/sessions/1", url: "/sessions/1/rounds/new",
                          fields: [["key", "k"], ["number", "3"], ["version", "12"]], at: 5,
                          refused: false, number: 3, version: 12});
  assert.ok(isRound(item));
});

test("a payment is kept with what it says, its token from its page", () => {
  const item = kept({url: "/sessions/1/settle/paid", queue: "/sessions/1/settle",
                     fields: paying, at: 5, payment: shown});
  assert.equal(kindOf(item), "payment");
  assert.equal(item.token, "/sessions/1/settle");
  assert.equal(item.board, "/sessions/1/settle");
  assert.deepEqual(item.fields, paying);  // sent as the form would be, key and all
  assert.deepEqual(item.payment, {payer: "Ann", payee: "Ben", amount: "RM 5.50", undo: false});
  assert.equal(item.number, undefined);
});

test("a part payment says the amount as typed; one taken back says so", () => {
  const part = kept({url: "/money/paid", queue: "/money", at: 5, payment: shown,
                     fields: [...paying, ["amount", " 3.5 "]]});
  assert.equal(part.payment?.amount, "RM 3.5");
  const undo = kept({url: "/money/undo", queue: "/money", at: 5,
                     fields: [["key", "k"], ["payment_id", "4"]],
                     payment: JSON.stringify({payer: "Ann", payee: "Ben", amount: "S$ 2.00",
                                              currency: "S$", undo: true})});
  assert.deepEqual(undo.payment, {payer: "Ann", payee: "Ben", amount: "S$ 2.00", undo: true});
});

test("kept before payments came, an item without a kind is a round", () => {
  assert.equal(kindOf({}), "round");
  assert.deepEqual(news({board: "/sessions/1", url: "/sessions/1/rounds/new", number: 4,
                         version: 9, fields: [], at: 0, refused: false, saved: "/sessions/1/rounds/4"}),
                   {kind: "round", number: 4, url: "/sessions/1/rounds/4", board: "/sessions/1"});
});

test("a payment sent is news with what it says, at the page it went on to", () => {
  const item = kept({url: "/sessions/1/settle/paid", queue: "/sessions/1/settle",
                     fields: paying, at: 5, payment: shown});
  assert.deepEqual(news({...item, saved: "/sessions/1/settle#transfers"}),
                   {kind: "payment", url: "/sessions/1/settle#transfers", board: "/sessions/1/settle",
                    key: "1764403200.abc",
                    payment: {payer: "Ann", payee: "Ben", amount: "RM 5.50", undo: false}});
});

test("payments waiting do not move a round's form on", () => {
  const payment = kept({url: "/sessions/1/settle/paid", queue: "/sessions/1", fields: paying,
                        at: 5, payment: shown});
  assert.equal(following([payment], "/sessions/1", 3), null);
  const round = kept({url: "/sessions/1/rounds/new", queue: "/sessions/1", at: 5,
                      fields: [["number", "3"], ["version", "12"]]});
  assert.deepEqual(following([round, payment], "/sessions/1", 12), {number: 4, version: 13});
});

test("news is said once each: two payments going on to the same page are two", () => {
  const first = {url: "/sessions/1/settle", key: "k1"};
  const second = {url: "/sessions/1/settle", key: "k2"};
  assert.deepEqual(withNews([first], [first, second]), [first, second]);
  // News kept before keys were in it: by its page.
  const old = {url: "/sessions/1/rounds/4"};
  assert.deepEqual(withNews([old], [{url: "/sessions/1/rounds/4"}]), [old]);
});

test("a change is shown on its queue's pages only, not on another session's alike", () => {
  assert.ok(under("/sessions/1", "/sessions/1"));
  assert.ok(under("/sessions/1/rounds/new", "/sessions/1"));
  assert.ok(!under("/sessions/10", "/sessions/1"));
  assert.ok(!under("/sessions/10/rounds/new", "/sessions/1"));
  assert.ok(under("/money", "/money") && !under("/moneybags", "/money"));
});
