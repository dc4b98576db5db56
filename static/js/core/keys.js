// Once-only keys (web/once.py): "<the form's time, s>.<22 random characters>".

export function newKey(/** @type {number | string} */ time) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  return `${time}.${random.replace(/=+$/, "")}`;
}

/** The time a key was made at, as written; null for a key without one. */
export const keyTime = (/** @type {string} */ key) => /^([0-9]+)\./.exec(key)?.[1] ?? null;
