// The scripts' strings in the page's language: one catalog with the server's
// (web/script_strings.py hands each page the translations of the msgids its
// modules use, and the plural rule, as data; strings.js loads them here).
// gettext and ngettext read as Flask-Babel's: a message not translated is its
// msgid, in English; values fill its %(name)s placeholders as Python's %
// does, and ngettext's `num` is its count unless given.

/**
 * @typedef {{lang?: string, plural?: Record<string, number>,
 *   messages?: Record<string, string | string[]>}} Strings
 */

/** @type {{lang: string, plural: Record<string, number>, messages: Record<string, string | string[]>}} */
let strings = {lang: "en", plural: {one: 0, other: 1}, messages: {}};
/** @type {Intl.PluralRules | null} */
let rules = null;

/** The strings to use from now on. @param {Strings} data */
export function load(data) {
  strings = {lang: data.lang || "en", plural: data.plural || {one: 0, other: 1},
    messages: data.messages || {}};
  rules = null;
}

const PLACEHOLDER = /%(?:\(([^)]*)\))?([a-zA-Z%])/g;

/**
 * ``text`` % ``values``, as Python formats with a mapping: %(name)s, and
 * %(name)d or %(name)i (a whole number); %% is a percent sign. A name missing,
 * or a conversion other than these, is an error, as in Python.
 * @param {string} text @param {Record<string, unknown>} values
 */
export function interpolate(text, values) {
  return text.replace(PLACEHOLDER, (whole, name, kind) => {
    if (kind === "%" && name === undefined) return "%";
    if (name === undefined || !Object.hasOwn(values, name) || !"sdi".includes(kind)) {
      throw new Error(`${JSON.stringify(text)}: no value for ${whole}`);
    }
    const value = values[name];
    return kind === "s" ? String(value) : String(Math.trunc(Number(value)));
  });
}

// As Flask-Babel's gettext: a message is formatted only when values are given.
/** @param {string} text @param {Record<string, unknown> | undefined} values */
const filled = (text, values) => values && Object.keys(values).length ?
  interpolate(text, values) : text;

/** The translation of ``msgid``. @param {string} msgid @param {Record<string, unknown>} [values] */
export function gettext(msgid, values) {
  const found = strings.messages[msgid];
  return filled(typeof found === "string" ? found : msgid, values);
}

/** Which form of a translation ``n`` takes, by the language's rule. @param {number} n */
function form(n) {
  rules ||= new Intl.PluralRules(strings.lang);
  return strings.plural[rules.select(n)] ?? strings.plural.other ?? 0;
}

/**
 * The translation of a message with a count: ``singular`` or ``plural`` in English.
 * @param {string} singular @param {string} plural @param {number} n
 * @param {Record<string, unknown>} [values]
 */
export function ngettext(singular, plural, n, values) {
  const found = strings.messages[singular];
  const text = Array.isArray(found) ? found[form(n)] ?? found[found.length - 1]
    : n === 1 ? singular : plural;
  return interpolate(text, {num: n, ...values});
}
