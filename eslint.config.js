// ESLint (flat config) for static/js and its tests: `npm run lint`.
import js from "@eslint/js";
import globals from "globals";

const worker = {...globals.worker, localStorage: "readonly", sessionStorage: "readonly"};

export default [
  {ignores: ["node_modules/", ".venv/", "templates/"]},  // templates/: Jinja, not JS
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: globals.browser},
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "error",
      "no-implicit-globals": "error",
      "no-unused-vars": ["error", {caughtErrors: "none"}],
    },
  },
  // The core has no DOM: what a worker has, and the phone's Web Storage.
  {files: ["static/js/core/**/*.js"], languageOptions: {globals: worker}},
  // The service worker is a classic script (not every browser runs module
  // workers); its global scope is its own, shared with no other script.
  {
    files: ["static/js/sw.js"],
    languageOptions: {sourceType: "script", globals: globals.serviceworker},
    rules: {"no-implicit-globals": "off"},
  },
  // theme.js runs in <head> as a classic script, before the page's import map.
  {files: ["static/js/theme.js"], languageOptions: {sourceType: "script"}},
  // Where the browser has Background Sync, sw-sync.js runs it as a module.
  {files: ["static/js/sw-sync.js"], languageOptions: {globals: globals.serviceworker}},
  {files: ["tests/js/**/*.js", "eslint.config.js"], languageOptions: {globals: globals.node}},
];
