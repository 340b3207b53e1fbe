/**
 * Image sizes and their token cost. The rule (platform.claude.com vision, 2026-07; see
 * docs/../shared reference "outside-formats" §2): the image is scaled down, keeping its aspect
 * ratio, until its long edge is ≤ 1568 px AND ceil(w/28) × ceil(h/28) ≤ 1568; that product is
 * its token count (so 1920×1080 → 1456×819 → 1560 tokens).
 */

export const MAX_LONG_EDGE = 1568;
export const MAX_IMAGE_TOKENS = 1568;
const PATCH = 28;

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export interface ImageInfo {
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

function patches(w: number, h: number): number {
  return Math.ceil(w / PATCH) * Math.ceil(h / PATCH);
}

/** Token cost of a width × height image under the rule above. */
export function imageTokens(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 0;
  const long = Math.max(width, height);
  let edge = Math.min(long, MAX_LONG_EDGE);
  const size = (e: number): [number, number] => {
    const scale = e / long;
    return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  };
  // Shrinking a pixel at a time finds the largest size that fits (at most ~1,500 steps).
  while (edge > 1 && patches(...size(edge)) > MAX_IMAGE_TOKENS) edge--;
  return patches(...size(edge));
}

/** Width and height from a PNG, JPEG, GIF or WebP header; null when the bytes are none of those. */
export function readImageInfo(bytes: Buffer): ImageInfo | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString("latin1", 12, 16) === "IHDR") {
    return { mediaType: "image/png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && (bytes.toString("latin1", 0, 6) === "GIF87a" || bytes.toString("latin1", 0, 6) === "GIF89a")) {
    return { mediaType: "image/gif", width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") {
    return readWebp(bytes);
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return readJpeg(bytes);
  return null;
}

function readWebp(bytes: Buffer): ImageInfo | null {
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8X") {
    return { mediaType: "image/webp", width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  }
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { mediaType: "image/webp", width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === "VP8 ") {
    return { mediaType: "image/webp", width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

function readJpeg(bytes: Buffer): ImageInfo | null {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    // Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but don't.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mediaType: "image/jpeg", height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    }
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return null;
}

/** A minimal valid-header PNG of the given size (pixel data is not needed to read its size). */
export function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write("IHDR", 12, "latin1");
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header[24] = 8;
  header[25] = 6;
  return header;
}
