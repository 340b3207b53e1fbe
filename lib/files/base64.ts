// Strict base64 for the `data` of image and document blocks. Buffer.from(s, "base64") skips
// any character outside the alphabet and stops at the first "=", so "%PDF garbage!!" decodes
// to some bytes and a truncated upload decodes to a shorter file: the API would refuse both
// with a 400, and we would have stored, counted and searched them first. This decoder accepts
// exactly the padded standard alphabet of RFC 4648 §4 (what the Messages API takes), one pass
// over the string and no regular expression.

const INVALID = -1;
/** Each char code's 6-bit value, or INVALID; "=" is handled apart. */
const VALUES = (() => {
  const table = new Int8Array(128).fill(INVALID);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();
const PAD = 0x3d; // "="

/**
 * How many bytes `data` decodes to if it is well formed, without decoding: a size limit
 * (10 MB an image, 32 MB a request) can refuse a body before allocating for it.
 */
export function decodedSize(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(data.length / 4) * 3 - padding);
}

/**
 * The bytes `data` encodes, or null when it is not canonical-length, padded, standard-alphabet
 * base64: whitespace, line breaks, the URL-safe alphabet, a missing or misplaced "=" and a
 * length that is not a multiple of 4 are all refused. The empty string decodes to no bytes.
 * (Non-zero bits left over in the last character are accepted, as most decoders do: the bytes
 * are still unambiguous.)
 */
export function decodeBase64(data: string): Uint8Array | null {
  const length = data.length;
  if (length % 4 !== 0) return null;
  let padding = 0;
  if (length > 0 && data.charCodeAt(length - 1) === PAD) padding = data.charCodeAt(length - 2) === PAD ? 2 : 1;
  const out = new Uint8Array((length / 4) * 3 - padding);
  const body = length - padding;
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < body; i++) {
    const code = data.charCodeAt(i);
    const value = code < 128 ? VALUES[code] : INVALID;
    if (value === INVALID) return null; // includes a "=" before the end
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
