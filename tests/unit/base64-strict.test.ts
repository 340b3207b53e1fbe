import { describe, it, expect } from "vitest";
import { decodeBase64, decodedSize } from "@/lib/files/base64";

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

describe("decodeBase64", () => {
  it("round-trips every length's padding with Buffer's encoder", () => {
    for (let n = 0; n <= 64; n++) {
      const data = bytes(n);
      const encoded = Buffer.from(data).toString("base64");
      expect(decodeBase64(encoded)).toEqual(data);
      expect(decodedSize(encoded)).toBe(n);
    }
  });

  it("decodes all 256 byte values and the whole alphabet", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64(Buffer.from(all).toString("base64"))).toEqual(all);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    expect(decodeBase64(alphabet)).toEqual(new Uint8Array(Buffer.from(alphabet, "base64")));
  });

  it("refuses whitespace and line breaks anywhere (Buffer.from skips them)", () => {
    for (const data of ["QUJD REVG", "QUJD\nREVG", "QUJDREVG\n", " QUJDREVG", "QUJD\r\nREVG", "QUJD\tREVG", "QUJDREVG\u00a0"]) {
      expect(decodeBase64(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("refuses padding errors: missing, extra, misplaced, or a length that is not a multiple of 4", () => {
    for (const data of ["QQ", "QQ=", "QUI", "Q===", "====", "QQ==QQ==", "Q=Q=", "=QUJ", "QUJD=", "QUJDRA=", "QUJDRA==="]) {
      expect(decodeBase64(data), data).toBeNull();
    }
  });

  it("refuses characters outside the standard alphabet: URL-safe, punctuation, non-ASCII, NUL", () => {
    for (const data of ["QUJ-", "QUJ_", "QUJ.", "QUJ*", "QUJé", "QUJ\0", "QUJ\u{1F600}".slice(0, 4), "%PDF-1.4"]) {
      expect(decodeBase64(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("refuses garbage that Buffer.from would quietly turn into bytes", () => {
    const garbage = "<html><body>Not found</body></html>";
    expect(Buffer.from(garbage, "base64").length).toBeGreaterThan(0);
    expect(decodeBase64(garbage)).toBeNull();
  });

  it("decodes the empty string to no bytes", () => {
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
  });

  it("accepts non-zero leftover bits in the last character, as most decoders do", () => {
    expect(decodeBase64("QR==")).toEqual(Uint8Array.of(0x41));
  });

  it("is linear: 8 MB of base64, and 8 MB of garbage ending in one bad character, decode quickly", () => {
    const big = Buffer.from(bytes(6 * 1024 * 1024)).toString("base64");
    let t = performance.now();
    expect(decodeBase64(big)?.length).toBe(6 * 1024 * 1024);
    const okMs = performance.now() - t;
    t = performance.now();
    expect(decodeBase64(big.slice(0, -4) + "QQ=!")).toBeNull();
    const badMs = performance.now() - t;
    // Generous for a slow CI machine; a backtracking or quadratic decoder takes seconds to minutes.
    expect(okMs).toBeLessThan(1_000);
    expect(badMs).toBeLessThan(1_000);
  });
});

describe("decodedSize", () => {
  it("is the length a well-formed string decodes to, without decoding", () => {
    expect(decodedSize("")).toBe(0);
    expect(decodedSize("QQ==")).toBe(1);
    expect(decodedSize("QUI=")).toBe(2);
    expect(decodedSize("QUJD")).toBe(3);
    expect(decodedSize("A".repeat(4 * 1000))).toBe(3000);
  });

  it("never answers less than 0 for a malformed string", () => {
    expect(decodedSize("=")).toBe(0);
    expect(decodedSize("==")).toBe(0);
  });
});
