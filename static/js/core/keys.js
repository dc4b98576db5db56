// A change's key (web/once.py): the second its form was made, by the
// server's clock, a dot and 16 random bytes in base64url. No DOM.

/**
 * @param {number | string} seconds
 * @returns {string}
 */
export function newKey(seconds) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${seconds}.${random}`;
}
