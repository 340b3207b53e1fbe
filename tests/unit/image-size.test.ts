import { describe, it, expect } from "vitest";
import { imageSize, sniffImageType } from "@/lib/files/image-size";

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const u8 = (...parts: number[][]) => Uint8Array.from(parts.flat());

function png(width: number, height: number): Uint8Array {
  // Signature, then IHDR: length 13, type, width, height, depth 8, colour 6, and the rest.
  return u8([0x89, ...ascii("PNG\r\n\x1a\n")], be32(13), ascii("IHDR"), be32(width), be32(height), [8, 6, 0, 0, 0], be32(0));
}

/** SOI, an APP0 segment, an optional extra segment, then a SOFn frame header. */
function jpeg(width: number, height: number, sof = 0xc0, extra: number[] = []): Uint8Array {
  const app0 = [0xff, 0xe0, ...be16(16), ...ascii("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const frame = [0xff, sof, ...be16(17), 8, ...be16(height), ...be16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return u8([0xff, 0xd8], app0, extra, frame, [0xff, 0xd9]);
}

const gif = (width: number, height: number) => u8(ascii("GIF89a"), le16(width), le16(height), [0xf7, 0, 0]);

function riff(chunk: string, payload: number[]): Uint8Array {
  const body = [...ascii("WEBP"), ...ascii(chunk), ...le32(payload.length), ...payload];
  return u8(ascii("RIFF"), le32(body.length), body);
}
const webpLossy = (w: number, h: number) => riff("VP8 ", [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...le16(w), ...le16(h), 0, 0]);
function webpLossless(w: number, h: number): Uint8Array {
  const bits = ((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14);
  return riff("VP8L", [0x2f, ...le32(bits), 0, 0, 0, 0, 0]);
}
const webpExtended = (w: number, h: number) => riff("VP8X", [0x10, 0, 0, 0, ...le24(w - 1), ...le24(h - 1)]);

describe("imageSize", () => {
  it("reads PNG's IHDR", () => {
    expect(imageSize(png(1920, 1080), "image/png")).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(png(1, 1), "image/png")).toEqual({ width: 1, height: 1 });
  });

  it("reads JPEG's frame header from baseline, progressive and lossless SOF markers", () => {
    for (const sof of [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]) {
      expect(imageSize(jpeg(4032, 3024, sof), "image/jpeg"), sof.toString(16)).toEqual({ width: 4032, height: 3024 });
    }
  });

  it("walks past DHT (C4), DAC (CC), EXIF, fill bytes and standalone markers to the frame", () => {
    const dht = [0xff, 0xc4, ...be16(4), 0, 0];
    const dac = [0xff, 0xcc, ...be16(4), 0, 0];
    const exif = [0xff, 0xe1, ...be16(2 + 1000), ...new Array(1000).fill(0x45)];
    const fill = [0xff, 0xff, 0xff];
    const rst = [0xff, 0xd0];
    expect(imageSize(jpeg(800, 600, 0xc0, [...dht, ...dac, ...exif, ...rst, ...fill]), "image/jpeg")).toEqual({ width: 800, height: 600 });
  });

  it("reads GIF's logical screen", () => {
    expect(imageSize(gif(320, 240), "image/gif")).toEqual({ width: 320, height: 240 });
    expect(imageSize(u8(ascii("GIF87a"), le16(7), le16(9), [0, 0, 0]), "image/gif")).toEqual({ width: 7, height: 9 });
  });

  it("reads WebP's three encodings", () => {
    expect(imageSize(webpLossy(1024, 768), "image/webp")).toEqual({ width: 1024, height: 768 });
    expect(imageSize(webpLossless(16383, 1), "image/webp")).toEqual({ width: 16383, height: 1 });
    expect(imageSize(webpExtended(16777216, 2), "image/webp")).toEqual({ width: 16777216, height: 2 });
  });

  it("answers null when the bytes are not the declared type", () => {
    expect(imageSize(png(10, 10), "image/jpeg")).toBeNull();
    expect(imageSize(jpeg(10, 10), "image/png")).toBeNull();
    expect(imageSize(gif(10, 10), "image/webp")).toBeNull();
    expect(imageSize(png(10, 10), "image/svg+xml")).toBeNull();
    expect(imageSize(png(10, 10), "toString")).toBeNull();
    expect(imageSize(new TextEncoder().encode("<html>not an image</html>"), "image/png")).toBeNull();
  });

  it("answers null, never throws, for every truncation of every format", () => {
    for (const [type, file] of [
      ["image/png", png(640, 480)],
      ["image/jpeg", jpeg(640, 480)],
      ["image/gif", gif(640, 480)],
      ["image/webp", webpLossy(640, 480)],
      ["image/webp", webpLossless(640, 480)],
      ["image/webp", webpExtended(640, 480)],
    ] as const) {
      const full = imageSize(file, type);
      expect(full).toEqual({ width: 640, height: 480 });
      // A cut before the size's last byte has no size; from there on the header is whole.
      for (let n = 0; n < file.length; n++) {
        const cut = imageSize(file.subarray(0, n), type);
        expect(cut === null || (cut.width === 640 && cut.height === 480), `${type} cut at ${n}`).toBe(true);
      }
      expect(imageSize(file.subarray(0, 8), type)).toBeNull();
    }
  });

  it("refuses zero sides and PNG sides beyond 2^31 - 1", () => {
    expect(imageSize(png(0, 10), "image/png")).toBeNull();
    expect(imageSize(png(0x80000000, 10), "image/png")).toBeNull();
    expect(imageSize(jpeg(10, 0), "image/jpeg")).toBeNull(); // height deferred to a DNL marker
    expect(imageSize(gif(0, 0), "image/gif")).toBeNull();
  });

  it("stops at once on a JPEG segment length beyond the file (a huge marker)", () => {
    const huge = u8([0xff, 0xd8, 0xff, 0xe1], be16(0xffff), [1, 2, 3]);
    expect(imageSize(huge, "image/jpeg")).toBeNull();
    // Length below 2 would not move the walk forward: refused, not looped on.
    expect(imageSize(u8([0xff, 0xd8, 0xff, 0xe1], be16(0), [0xff, 0xc0]), "image/jpeg")).toBeNull();
    expect(imageSize(u8([0xff, 0xd8, 0xff, 0xe1], be16(1), [0xff, 0xc0]), "image/jpeg")).toBeNull();
  });

  it("answers null for a JPEG whose scan or end comes before any frame, or that loses sync", () => {
    expect(imageSize(u8([0xff, 0xd8, 0xff, 0xda], be16(2), [1, 2]), "image/jpeg")).toBeNull();
    expect(imageSize(u8([0xff, 0xd8, 0xff, 0xd9]), "image/jpeg")).toBeNull();
    expect(imageSize(u8([0xff, 0xd8, 0x12, 0x34, 0xff, 0xc0]), "image/jpeg")).toBeNull();
  });

  it("walks a megabyte of fill bytes and of tiny segments in linear time", () => {
    const fill = u8([0xff, 0xd8], new Array(1_000_000).fill(0xff));
    const tiny: number[] = [0xff, 0xd8];
    for (let i = 0; i < 250_000; i++) tiny.push(0xff, 0xfe, 0, 2); // empty COM segments
    const t = performance.now();
    expect(imageSize(fill, "image/jpeg")).toBeNull();
    expect(imageSize(Uint8Array.from(tiny), "image/jpeg")).toBeNull();
    expect(performance.now() - t).toBeLessThan(500);
  });

  it("survives random bytes behind every signature", () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    const heads: [string, number[]][] = [
      ["image/png", [0x89, ...ascii("PNG\r\n\x1a\n"), 0, 0, 0, 13, ...ascii("IHDR")]],
      ["image/jpeg", [0xff, 0xd8]],
      ["image/gif", ascii("GIF89a")],
      ["image/webp", [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8X")]],
    ];
    for (let round = 0; round < 2_000; round++) {
      const [type, head] = heads[round % heads.length];
      const tail = Array.from({ length: rand() }, rand);
      const size = imageSize(u8(head, tail), type);
      if (size) expect(size.width > 0 && size.height > 0).toBe(true);
    }
  });
});

describe("sniffImageType", () => {
  it("names the format from the signature, whatever was declared", () => {
    expect(sniffImageType(png(1, 1))).toBe("image/png");
    expect(sniffImageType(jpeg(1, 1))).toBe("image/jpeg");
    expect(sniffImageType(gif(1, 1))).toBe("image/gif");
    expect(sniffImageType(webpLossy(1, 1))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("%PDF-1.4"))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });
});
