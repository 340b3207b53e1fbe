// Files for the browser tests of attachments: a real PNG (a gradient, so a thumbnail that shows
// is told from one that does not), a PDF, a log file.
import { deflateSync } from "node:zlib";
import { makePdf } from "../fake-anthropic/pdf-fixture";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A decodable RGB PNG of `width`×`height`: a diagonal gradient from sky to violet. */
export function gradientPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      raw[row + 1 + x * 3] = Math.round(56 + t * 90);
      raw[row + 2 + x * 3] = Math.round(189 - t * 100);
      raw[row + 3 + x * 3] = Math.round(248 - t * 10);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const REPORT_PDF = makePdf([
  "Quarterly report. Revenue grew in every region; the harbor project finished on time.",
  "Second page: the copper market and the lantern line are next year's priorities.",
]);

export const SERVER_LOG = Array.from({ length: 60 }, (_, i) => `2025-01-01T10:${String(i).padStart(2, "0")}:00Z INFO request ${i} served in ${10 + i} ms`).join("\n");
