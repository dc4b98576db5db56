// The service worker is a classic script and cannot import core/names.js: the
// names it uses for its caches and messages are checked against the core's.
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {test} from "node:test";

import {CLAIM, LANGUAGE, NOT_SENT, PAGES, STATIC} from "../../static/js/core/names.js";

const worker = readFileSync(new URL("../../static/js/sw.js", import.meta.url), "utf8");
// The language switch imports nothing either (the offline page has no import map).
const language = readFileSync(new URL("../../static/js/language.js", import.meta.url), "utf8");

test("the worker names its caches as the pages do", () => {
  assert.ok(worker.includes(`const PAGES = "${PAGES}";`));
  assert.ok(worker.includes(`const STATIC = "${STATIC}" + VERSION;`));
  assert.ok(worker.includes(`name.startsWith("${STATIC}")`));
});

test("the worker's messages are the ones the pages send and listen for", () => {
  assert.ok(worker.includes(`event.data === "${CLAIM}"`));
  assert.ok(worker.includes(`postMessage("${NOT_SENT}")`));
});

test("the worker keeps the phone's language where the switch tells it", () => {
  assert.ok(worker.includes(`const LANGUAGE = "${LANGUAGE}";`));
  assert.ok(language.includes(`const LANGUAGE = "${LANGUAGE}";`));
});
