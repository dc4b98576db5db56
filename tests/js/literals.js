// The string literals of scripts, for a Python test (tests/web/test_translations.py,
// which decides which are text a person reads): for each file named on the
// command line, its literals and template literals (each `${…}` read as "0"),
// with their line and their role: "gettext" (a message of gettext or
// ngettext), "import" (a module's name), "error" (a programmer's message:
// new Error(…)), "key" (a property's name) or "other". Parsed by ESLint's own
// parser, through its Linter.
import {readFileSync} from "node:fs";

import {Linter} from "eslint";

const MESSAGES = new Set(["gettext", "ngettext"]);

/** @param {any} node An ESTree node, with its parent. */
function role(node) {
  const parent = node.parent;
  if (parent.type === "CallExpression" && parent.arguments.includes(node)) {
    const callee = parent.callee;
    const name = callee.type === "Identifier" ? callee.name :
      callee.type === "MemberExpression" ? callee.property.name : "";
    if (MESSAGES.has(name)) return "gettext";
  }
  if (parent.type === "NewExpression" && /Error$/.test(parent.callee.name || "")) return "error";
  if (["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration", "ImportExpression"]
    .includes(parent.type)) return "import";
  if (parent.type === "Property" && parent.key === node) return "key";
  if (parent.type === "MemberExpression" && parent.property === node) return "key";
  return "other";
}

/** @type {Record<string, {line: number, text: string, role: string}[]>} */
const found = {};
/** @param {string} file */
const collect = (file) => ({
  create: () => ({
    /** @param {any} node */
    Literal(node) {
      if (typeof node.value === "string") {
        found[file].push({line: node.loc.start.line, text: node.value, role: role(node)});
      }
    },
    /** @param {any} node */
    TemplateLiteral(node) {
      if (node.parent.type === "TaggedTemplateExpression") return;
      const text = node.quasis.map((/** @type {any} */ quasi) => quasi.value.cooked).join("0");
      found[file].push({line: node.loc.start.line, text, role: role(node)});
    },
  }),
});

for (const file of process.argv.slice(2)) {
  found[file] = [];
  const script = file.endsWith("/sw.js") ? "script" : "module";
  const messages = new Linter().verify(readFileSync(file, "utf8"), [{
    plugins: {strings: {rules: {collect: collect(file)}}},
    rules: {"strings/collect": "error"},
    languageOptions: {ecmaVersion: 2022, sourceType: script},
  }], {filename: file});
  const fatal = messages.filter((message) => message.fatal);
  if (fatal.length) throw new Error(`${file}: ${fatal[0].message}`);
}
process.stdout.write(JSON.stringify(found));
