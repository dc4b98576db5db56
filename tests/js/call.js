// Calls a function of the JavaScript core for a Python test: reads
// {"module": "core/sending.js", "name": "following", "args": [...]} on stdin
// and writes what it returns, as JSON.
import {readFileSync} from "node:fs";

const {module, name, args} = JSON.parse(readFileSync(0, "utf8"));
const exported = await import(new URL(`../../static/js/${module}`, import.meta.url).href);
process.stdout.write(JSON.stringify(await exported[name](...args)));
