// The scripts' strings (static/js/core/i18n.js): Flask-Babel's gettext and
// ngettext, on the data a page embeds (web/script_strings.py).
import assert from "node:assert/strict";
import {afterEach, test} from "node:test";

import {gettext, interpolate, load, ngettext} from "../../static/js/core/i18n.js";

const MALAY = {lang: "ms", plural: {other: 0}, messages: {
  "Try again": "Cuba lagi",
  "Offline, as of %(time)s": "Luar talian, setakat %(time)s",
  "%(num)s round waiting": ["%(num)s pusingan menunggu"],
}};
const ENGLISH = {lang: "en", plural: {one: 0, other: 1}, messages: {}};

afterEach(() => load(ENGLISH));

test("a message is its translation, and its msgid where there is none", () => {
  load(MALAY);
  assert.equal(gettext("Try again"), "Cuba lagi");
  assert.equal(gettext("Reload"), "Reload");
  assert.equal(gettext("Offline, as of %(time)s", {time: "21:04"}), "Luar talian, setakat 21:04");
  load(ENGLISH);
  assert.equal(gettext("Try again"), "Try again");
});

test("placeholders are filled as Python's % fills them from a mapping", () => {
  assert.equal(interpolate("%(name)s has %(n)d cards, 100%%", {name: "Ann", n: 14.7}),
    "Ann has 14 cards, 100%");
  assert.equal(interpolate("%(n)i and %(n)s", {n: -2.5}), "-2 and -2.5");
  // A name missing, or a conversion Python would read otherwise: an error, as there.
  assert.throws(() => interpolate("%(name)s", {}), /no value for %\(name\)s/);
  assert.throws(() => interpolate("%(name)r", {name: "Ann"}), /%\(name\)r/);
  assert.throws(() => interpolate("%s", {name: "Ann"}), /%s/);
});

test("as Flask-Babel's gettext, a message is formatted only when values are given", () => {
  assert.equal(gettext("100%"), "100%");
  assert.equal(gettext("100%%", {}), "100%%");
  assert.equal(gettext("100%%", {n: 1}), "100%");
});

test("ngettext takes the form of the language's plural rule, with num as the count", () => {
  load(MALAY);
  for (const n of [0, 1, 2, 21]) {
    assert.equal(ngettext("%(num)s round waiting", "%(num)s rounds waiting", n),
      `${n} pusingan menunggu`);
  }
  // Not translated: English's forms, by English's rule.
  assert.equal(ngettext("%(num)s hand", "%(num)s hands", 1), "1 hand");
  assert.equal(ngettext("%(num)s hand", "%(num)s hands", 0), "0 hands");
  load(ENGLISH);
  assert.equal(ngettext("%(num)s round waiting", "%(num)s rounds waiting", 1), "1 round waiting");
  assert.equal(ngettext("%(num)s round waiting", "%(num)s rounds waiting", 2), "2 rounds waiting");
  assert.equal(ngettext("%(who)s's %(num)s card", "%(who)s's %(num)s cards", 3, {who: "Ben"}),
    "Ben's 3 cards");
  assert.equal(ngettext("%(num)s card", "%(num)s cards", 3, {num: "three"}), "three cards");
});

test("a rule of two forms picks each by its CLDR category", () => {
  load({lang: "en", plural: {one: 0, other: 1},
    messages: {"%(num)s hand": ["⟦%(num)s hând⟧", "⟦%(num)s hânds⟧"]}});
  assert.equal(ngettext("%(num)s hand", "%(num)s hands", 1), "⟦1 hând⟧");
  assert.equal(ngettext("%(num)s hand", "%(num)s hands", 5), "⟦5 hânds⟧");
});
