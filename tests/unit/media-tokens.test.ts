import { describe, it, expect, afterEach } from "vitest";
import {
  documentTokens,
  fitImage,
  imageTokens,
  patchTokens,
  PDF_PAGE_IMAGE_TOKENS,
  UNKNOWN_PDF_TOKENS,
  VISION_TIERS,
  type Size,
  type VisionTier,
} from "@/lib/tokens/media";
import { pdfFacts, textFacts } from "@/lib/tokens/documents";
import { pdfFactsOffThread, stopTokenWorker } from "@/lib/tokens/off-thread";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

afterEach(() => stopTokenWorker());

describe("image tokens", () => {
  it("match the vision docs' worked example on both tiers", () => {
    // 1920×1080 → 1456×819, 1,560 tokens (standard); 2,691 as it is (high resolution). A
    // third-party table of count_tokens results (⚠ secondary) shows 1,625 and 2,768 for this
    // size: the same figures plus a fixed framing of 65 and 77, as at its smaller sizes. Its
    // larger photos (2560×1440 and up) come out ~2% above our standard figure: unexplained.
    expect(fitImage({ width: 1920, height: 1080 })).toEqual({ width: 1456, height: 819 });
    expect(imageTokens({ width: 1920, height: 1080 }, "standard")).toBe(1560);
    expect(imageTokens({ width: 1920, height: 1080 }, "high")).toBe(2691);
    expect(fitImage({ width: 1080, height: 1920 })).toEqual({ width: 819, height: 1456 });
  });

  it("count an image within the limits as its patches, padded up to whole ones", () => {
    expect(imageTokens({ width: 200, height: 200 })).toBe(64); // ⌈200/28⌉ = 8
    expect(imageTokens({ width: 28, height: 28 })).toBe(1);
    expect(imageTokens({ width: 29, height: 28 })).toBe(2);
    expect(imageTokens({ width: 1, height: 1 })).toBe(1);
    expect(imageTokens({ width: 1000, height: 1000 })).toBe(36 * 36);
    expect(patchTokens({ width: 1456, height: 819 })).toBe(52 * 30);
  });

  it("shrink an image that is within the long edge but over the token cap", () => {
    // 1568×1568 is 3,136 patches; the largest square within 1,568 is 39×39 patches.
    expect(fitImage({ width: 1568, height: 1568 })).toEqual({ width: 1092, height: 1092 });
    expect(imageTokens({ width: 1568, height: 1568 })).toBe(1521);
  });

  it("keep extreme aspect ratios at 1 px or more on the short side", () => {
    expect(fitImage({ width: 8000, height: 1 })).toEqual({ width: 1568, height: 1 });
    expect(imageTokens({ width: 8000, height: 1 })).toBe(56);
    expect(fitImage({ width: 1, height: 8000 }, "high")).toEqual({ width: 1, height: 2576 });
  });

  it("count the tier's cap for an unknown or nonsensical size", () => {
    expect(imageTokens(null)).toBe(1568);
    expect(imageTokens(null, "high")).toBe(4784);
    for (const bad of [{ width: 0, height: 10 }, { width: -5, height: 10 }, { width: NaN, height: 10 }, { width: Infinity, height: 10 }]) {
      expect(fitImage(bad)).toBeNull();
      expect(imageTokens(bad)).toBe(1568);
    }
  });

  it("always fit the tier, keep the aspect ratio, and be the largest size that does", () => {
    let seed = 99;
    const rand = (n: number) => 1 + ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    for (const tier of ["standard", "high"] as VisionTier[]) {
      const { maxEdge, maxTokens } = VISION_TIERS[tier];
      for (let i = 0; i < 3_000; i++) {
        const size: Size = { width: rand(8000), height: rand(8000) };
        const seen = fitImage(size, tier)!;
        const tokens = patchTokens(seen);
        expect(Math.max(seen.width, seen.height)).toBeLessThanOrEqual(maxEdge);
        expect(tokens).toBeLessThanOrEqual(maxTokens);
        expect(tokens).toBe(imageTokens(size, tier));
        expect(seen.width).toBeLessThanOrEqual(size.width);
        expect(seen.height).toBeLessThanOrEqual(size.height);
        const long = Math.max(size.width, size.height);
        const seenLong = Math.max(seen.width, seen.height);
        if (seenLong === long) continue; // not resized
        // Same shape: the short side is the long side's share, rounded.
        const short = Math.min(size.width, size.height);
        expect(Math.abs(Math.min(seen.width, seen.height) - Math.max(1, (seenLong * short) / long))).toBeLessThanOrEqual(0.5);
        // One pixel more on the long edge would break a limit.
        const next = Math.max(1, Math.round(((seenLong + 1) * short) / long));
        const bigger = size.width >= size.height ? { width: seenLong + 1, height: next } : { width: next, height: seenLong + 1 };
        expect(seenLong + 1 > maxEdge || patchTokens(bigger) > maxTokens).toBe(true);
      }
    }
  });
});

describe("document tokens", () => {
  it("cost a PDF its text plus one standard-cap image and a little framing per page", () => {
    expect(PDF_PAGE_IMAGE_TOKENS).toBe(1568);
    expect(documentTokens({ kind: "pdf", pages: 3, textTokens: 900 })).toBe(900 + 3 * (1568 + 30));
    // A scan: no text layer, the pages' images only.
    expect(documentTokens({ kind: "pdf", pages: 1, textTokens: 0 })).toBe(1568 + 30);
  });

  it("cost a plain-text document its text and a small allowance", () => {
    expect(documentTokens({ kind: "text", pages: 1, textTokens: 120 })).toBe(140);
  });

  it("fall back to one typical page when the facts are unknown (a URL or file source)", () => {
    expect(documentTokens(null)).toBe(UNKNOWN_PDF_TOKENS);
    expect(UNKNOWN_PDF_TOKENS).toBe(3000 + 1568 + 30);
  });

  it("never count negative or fractional facts from a tampered stored block", () => {
    expect(documentTokens({ kind: "pdf", pages: -4, textTokens: -10 })).toBe(0);
    expect(documentTokens({ kind: "pdf", pages: 1.9, textTokens: 0 })).toBe(1598);
  });
});

describe("document facts", () => {
  const pages = ["First page: the quarterly figures.", "", "Third page — totals 1,234.56 and a table."];

  it("sum the pages' text estimates and count empty pages", () => {
    const facts = pdfFacts(pages);
    expect(facts).toEqual({ kind: "pdf", pages: 3, textTokens: pages.reduce((n, t) => n + estimateTextTokens(t), 0) });
    expect(documentTokens(facts)).toBe(facts.textTokens + 3 * 1598);
  });

  it("of a plain-text document are its text's estimate", () => {
    expect(textFacts("hello world")).toEqual({ kind: "text", pages: 1, textTokens: estimateTextTokens("hello world") });
    expect(textFacts("")).toEqual({ kind: "text", pages: 1, textTokens: 0 });
  });

  it("are the same off the event loop, for a PDF large enough to leave it", async () => {
    const big = Array.from({ length: 40 }, (_, i) => `Page ${i}: ` + "the ledger balances, column by column. ".repeat(60));
    expect(await pdfFactsOffThread(big)).toEqual(pdfFacts(big));
    expect(await pdfFactsOffThread(pages)).toEqual(pdfFacts(pages));
    expect(await pdfFactsOffThread([])).toEqual({ kind: "pdf", pages: 0, textTokens: 0 });
  });
});
