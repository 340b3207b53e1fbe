// Image dimensions read from the first bytes of the file, for the token estimate
// (lib/tokens/media.ts): the API bills an image by its size, not its bytes. No decoding and no
// dependency: the four formats the Messages API accepts all state their size in a header.
// The bytes come from anyone, so every read is bounds-checked (a short file answers null,
// never throws) and the one loop, JPEG's marker walk, always moves forward.

export interface ImageSize {
  width: number;
  height: number;
}

/** The media types of an image block (the Messages API's list). */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;

function startsWith(b: Uint8Array, at: number, ascii: string): boolean {
  if (b.length < at + ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (b[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** A size only when both sides are positive: a zero side is a broken or hostile header. */
const sized = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

const PNG_SIGNATURE = "\x89PNG\r\n\x1a\n";

/** The IHDR chunk must come first (PNG spec §5.6): its width and height are at bytes 16 and 20. */
function pngSize(b: Uint8Array): ImageSize | null {
  if (b.length < 24 || !startsWith(b, 0, PNG_SIGNATURE) || !startsWith(b, 12, "IHDR")) return null;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  // The spec caps each side at 2^31 - 1; larger is not a PNG.
  return width > 0x7fffffff || height > 0x7fffffff ? null : sized(width, height);
}

/** The logical screen size (GIF89a §18): what a viewer, and the API, takes as the image's size. */
function gifSize(b: Uint8Array): ImageSize | null {
  if (b.length < 10 || !(startsWith(b, 0, "GIF87a") || startsWith(b, 0, "GIF89a"))) return null;
  return sized(u16le(b, 6), u16le(b, 8));
}

/** RIFF container, then the first chunk says which of the three WebP encodings follows. */
function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30 || !startsWith(b, 0, "RIFF") || !startsWith(b, 8, "WEBP")) return null;
  if (startsWith(b, 12, "VP8 ")) {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (startsWith(b, 12, "VP8L")) {
    // Lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each, little-endian.
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (startsWith(b, 12, "VP8X")) {
    // Extended (alpha, animation): the canvas size, width - 1 and height - 1 in 24 bits each.
    return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return null;
}

/** SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers that stand alone, with no length after them: TEM, RST0–7, SOI. */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

/**
 * Walks the marker segments up to the first SOF. Each step moves at least 2 bytes forward, so
 * a hostile file ends the loop by running off its end; a segment length larger than the file
 * (a "huge marker") jumps past the end and answers null at once.
 */
function jpegSize(b: Uint8Array): ImageSize | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) return null; // not at a marker: entropy data before a frame, or garbage
    let marker = b[i + 1];
    // Any number of 0xff fill bytes may precede a marker (T.81 §B.1.1.2).
    while (marker === 0xff && i + 2 < b.length) marker = b[++i + 1];
    i += 2;
    if (marker === 0xff) return null;
    if (isStandalone(marker)) continue;
    // EOI or SOS before any frame header: there is no size to find.
    if (marker === 0xd9 || marker === 0xda) return null;
    if (i + 2 > b.length) return null;
    const length = u16be(b, i);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      // Segment: length(2) precision(1) height(2) width(2). A height of 0 defers it to a DNL
      // marker after the scan, which we do not chase: unknown, so null.
      if (length < 7 || i + 7 > b.length) return null;
      return sized(u16be(b, i + 5), u16be(b, i + 3));
    }
    i += length;
  }
  return null;
}

const READERS: Record<ImageMediaType, (b: Uint8Array) => ImageSize | null> = {
  "image/png": pngSize,
  "image/jpeg": jpegSize,
  "image/gif": gifSize,
  "image/webp": webpSize,
};

/**
 * The width and height of an image of the declared media type, or null when the bytes are not
 * that format (a PNG declared as image/jpeg is null, as the API refuses it), are cut short, or
 * state a zero side. Never throws, and reads at most to the first frame header.
 */
export function imageSize(bytes: Uint8Array, mediaType: string): ImageSize | null {
  const read = Object.hasOwn(READERS, mediaType) ? READERS[mediaType as ImageMediaType] : undefined;
  return read ? read(bytes) : null;
}

/** The format the bytes' signature names, whatever was declared: for an error that says which. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, 0, PNG_SIGNATURE)) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (startsWith(bytes, 0, "GIF87a") || startsWith(bytes, 0, "GIF89a")) return "image/gif";
  if (startsWith(bytes, 0, "RIFF") && startsWith(bytes, 8, "WEBP")) return "image/webp";
  return null;
}
