// Web Storage as the page has it, in memory.
export class Storage extends Map {
  get length() { return this.size; }
  key(/** @type {number} */ index) { return [...this.keys()][index] ?? null; }
  getItem(/** @type {string} */ key) { return this.get(key) ?? null; }
  setItem(/** @type {string} */ key, /** @type {string} */ value) { this.set(key, String(value)); }
  removeItem(/** @type {string} */ key) { this.delete(key); }
}
