// Once-only keys as the server reads them (scorekeeper/web/once.py KEY).
import assert from "node:assert/strict";
import {test} from "node:test";

import {keyTime, newKey} from "../../static/js/core/keys.js";

const SERVER_KEY = /^(?<made>[0-9]{10})\.[A-Za-z0-9_-]{16,43}$/;

test("a key keeps the form's time and is never made twice", () => {
  const keys = new Set();
  for (let n = 0; n < 200; n++) {
    const key = newKey(1764403200);
    assert.match(key, SERVER_KEY);
    assert.equal(keyTime(key), "1764403200");
    keys.add(key);
  }
  assert.equal(keys.size, 200);
});

test("a key from before keys told their time has none", () => {
  assert.equal(keyTime("kP3abcdefghijklmnop"), null);
  assert.equal(keyTime(newKey(keyTime("1700000000.abc") ?? 0)), "1700000000");
});
