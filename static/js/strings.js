// The page's strings (web/script_strings.py: JSON in <script id="strings">)
// handed to core/i18n.js: a script shows text by `gettext` and `ngettext`
// imported from here, so that they are loaded before it runs.

import {load} from "./core/i18n.js";

const embedded = document.getElementById("strings");
load(embedded ? JSON.parse(embedded.textContent) : {});

export {gettext, ngettext} from "./core/i18n.js";
