// Issue 29: counting must stay linear whatever the text. tiktoken's BPE is quadratic in one
// pre-tokenizer piece, so 80 KB of one letter used to take 13 s.
import { describe, it, expect, beforeAll } from "vitest";
import { get_encoding } from "@dqbd/tiktoken";
import { countPlan, RUN_CHUNK, SAMPLE_ABOVE } from "@/lib/tokens/plan";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const MB = 1_000_000;
const exact = (text: string) => get_encoding("cl100k_base").encode_ordinary(text).length;

/** A fixed pseudo-random generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

function dna(length: number): string {
  const next = random(29);
  let s = "";
  for (let i = 0; i < length; i++) s += "ACGT"[Math.floor(next() * 4)];
  return s;
}

/** Minified-looking JavaScript: no whitespace at all, short identifiers, many distinct names. */
function minified(length: number): string {
  let s = "";
  for (let k = 0; s.length < length; k++) s += `function a${k}(b,c){return b.map(d=>d*c+1).filter(e=>e>0x1f&&e.n!=="x${k % 97}")}var q${k}=[1,2,3];`;
  return s.slice(0, length);
}

function medianMs(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[1];
}

describe("counting hostile text", () => {
  beforeAll(() => {
    estimateTextTokens("warm the encoder up");
  });

  // Measured 5–40 ms each on this 2-core machine (13 s for 80 KB of one letter before).
  it.each([
    ["one letter", "x".repeat(MB)],
    ["random DNA", dna(MB)],
    ["minified code", minified(MB)],
    ["spaces", " ".repeat(MB)],
    ["newlines", "\n".repeat(MB)],
    ["punctuation", "!".repeat(MB)],
  ])("counts 1 MB of %s in under 200 ms", (_name, text) => {
    let n = 0;
    expect(medianMs(() => (n = estimateTextTokens(text)))).toBeLessThan(200);
    expect(n).toBeGreaterThan(0);
  });

  it("cuts only long runs of one class, so ordinary text counts exactly as before", () => {
    const prose = "The context window is managed, condensed and verified before it overflows. ".repeat(1_300);
    expect(prose.length).toBeLessThan(SAMPLE_ABOVE);
    expect(countPlan(prose).pieces).toEqual([prose]);
    expect(estimateTextTokens(prose)).toBe(exact(prose));
    const code = minified(100_000);
    expect(countPlan(code).pieces).toEqual([code]);
    expect(estimateTextTokens(code)).toBe(exact(code));
  });

  it("counts a long run close to what the whole run encodes to", () => {
    expect(estimateTextTokens("x".repeat(8_000))).toBe(exact("x".repeat(8_000)));
    const genome = dna(8_000);
    expect(Math.abs(estimateTextTokens(genome) / exact(genome) - 1)).toBeLessThan(0.02);
    const pieces = countPlan(`see ${"y".repeat(1_000)} and ${"-".repeat(300)}`).pieces;
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(RUN_CHUNK);
  });

  it("never cuts a character in two", () => {
    const astral = "𝐀".repeat(5_000); // a letter outside the BMP: two UTF-16 units each
    for (const piece of countPlan(astral).pieces) {
      expect(piece.charCodeAt(0) >= 0xdc00 && piece.charCodeAt(0) <= 0xdfff).toBe(false);
      expect(piece.length % 2).toBe(0);
    }
    const big = ("word 𝐀𝐁 ".repeat(3) + "𝐀".repeat(7)).repeat(20_000);
    expect(countPlan(big).pieces.every((p) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p))).toBe(true);
  });

  it("estimates a large mixed paste within a few percent, the same way every time", () => {
    const prose = "The quick brown fox jumps over the lazy dog, and then it rests. ".repeat(200);
    const cjk = "我们今天讨论的是上下文窗口的管理方法和压缩策略。".repeat(200);
    let text = "";
    for (let i = 0; text.length < 600_000; i++) text += prose.slice(0, 7_000) + minified(3_000) + cjk.slice(0, 1_000 + (i % 3) * 500);
    const estimate = estimateTextTokens(text);
    expect(Math.abs(estimate / exact(text) - 1)).toBeLessThan(0.04);
    expect(estimateTextTokens(text)).toBe(estimate);
  });
});
