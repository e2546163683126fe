// The fair shuffle, checked in the page: at creation the server commits to the game's seed
// with sha256("riichi-seed-v2:" + salt + ":" + seed) (v1, rooms made before v2:
// sha256("riichi-seed-v1:" + seed)); when the game ends it reveals the seed (as text: it has
// 128 bits, more than a JavaScript number keeps) and the salt, and anyone can recompute the
// hash. The page does so with the browser's own SHA-256 (crypto.subtle).

/** Hex sha256 commitment to a seed, or null where the browser offers no crypto.subtle
 * (pages served over plain http from a non-local address are not a secure context). */
export async function commitmentOf(seed, salt = "") {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const text = salt ? `riichi-seed-v2:${salt}:${seed}` : `riichi-seed-v1:${seed}`;
  const data = new TextEncoder().encode(text);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** "verified" | "mismatch" | "unavailable": does the revealed seed open the commitment? */
export async function verifySeed(seed, commitment, salt = "") {
  const mine = await commitmentOf(seed, salt);
  if (mine === null) return "unavailable";
  return mine === String(commitment).toLowerCase() ? "verified" : "mismatch";
}

/** The first 12 hex digits: enough to compare by eye, short enough for the table. */
export const shortHex = (hex) => (hex ? String(hex).slice(0, 12) : "");
