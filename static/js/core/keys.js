// Once-only keys (web/once.py): the time the change's form was made, in
// seconds since 1970 by the server's clock, a dot and 22 random characters
// (16 bytes in base64url): "1764403200.kP3…". No DOM: pages and tests alike.

/**
 * A new key for one change whose form was made at `seconds`.
 * @param {number | string} seconds
 * @returns {string}
 */
export function newKey(seconds) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${seconds}.${random}`;
}
