// The API key format: `tk_live_` + 32 random base62 characters + a 6-character checksum.
// The checksum (CRC32 of the random part, in base62) lets a typo be refused without a database
// lookup and lets secret scanners tell a real key from look-alike text, as GitHub's tokens do.
// Pure, no I/O.
import "server-only";
import { createHash, randomBytes } from "node:crypto";

export const KEY_PREFIX = "tk_live_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** Characters of the random part shown in lists beside the name (48 bits: tells keys apart, proves nothing). */
const VISIBLE_RANDOM = 8;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_RE = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE), as zlib computes it; written out because zlib.crc32 needs Node 20.15. */
export function crc32(text: string): number {
  const table = (crcTable ??= buildCrcTable());
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function buildCrcTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

/** A CRC-32 in base62, left-padded to 6 characters (62^6 > 2^32, so every value fits). */
export function checksum(random: string): string {
  let n = crc32(random);
  let out = "";
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(CHECKSUM_LENGTH, "0");
}

/** Uniform base62 characters from the CSPRNG: bytes of 248 and above are dropped, so no character is likelier. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export interface NewKeySecret {
  /** The whole key, shown to its owner once. */
  secret: string;
  /** What is stored instead of it. */
  hash: string;
  /** What lists show: `tk_live_` and the first characters. */
  prefix: string;
}

export function generateKey(): NewKeySecret {
  const random = randomBase62(RANDOM_LENGTH);
  const secret = `${KEY_PREFIX}${random}${checksum(random)}`;
  return { secret, hash: hashKey(secret), prefix: visiblePrefix(secret) };
}

/** SHA-256 in hex: the key's only stored form. A fast hash is enough for 190 random bits. */
export function hashKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function visiblePrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + VISIBLE_RANDOM);
}

export type KeyProblem = "malformed" | "bad_checksum";

/** Whether a presented string is a well-formed key with a matching checksum; no lookup. */
export function checkKeyFormat(secret: string): KeyProblem | null {
  const m = KEY_RE.exec(secret);
  if (!m) return "malformed";
  return checksum(m[1]) === m[2] ? null : "bad_checksum";
}
