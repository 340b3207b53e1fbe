// What no request may carry (lib/contract/input-guard.ts): NUL characters, lone surrogates and
// nesting too deep, anywhere in a value, keys included, found without recursion.
import { describe, expect, it } from "vitest";
import { inputProblem, MAX_JSON_DEPTH, storableText, storableValue } from "@/lib/contract/input-guard";

const nested = (levels: number): unknown => JSON.parse("[".repeat(levels) + "]".repeat(levels));

describe("inputProblem", () => {
  it("passes ordinary values, emoji and every other character", () => {
    expect(inputProblem({ a: "héllo 👋 \u0001\uFFFD", b: [1, true, null, { c: "\uD83D\uDE00" }] })).toBeNull();
    expect(inputProblem("plain")).toBeNull();
    expect(inputProblem(42)).toBeNull();
    expect(inputProblem(null)).toBeNull();
  });

  it("finds a NUL character and names where it is", () => {
    expect(inputProblem({ messages: [{ content: "ok" }, { content: "a\u0000b" }] })).toMatchObject({
      path: ["messages", 1, "content"],
      code: "nul_character",
    });
  });

  it("finds a NUL character in a key", () => {
    expect(inputProblem({ input: { "bad\u0000key": 1 } })).toMatchObject({ path: ["input", "bad\u0000key"], code: "nul_character" });
  });

  it.each([
    ["a high surrogate alone", "x\uD800y"],
    ["a high surrogate at the end", "x\uDBFF"],
    ["a low surrogate alone", "\uDC00x"],
    ["two high surrogates", "\uD83D\uD83D\uDE00"],
  ])("finds %s", (_, text) => {
    expect(inputProblem({ content: text })).toMatchObject({ path: ["content"], code: "lone_surrogate" });
  });

  it("reports the first problem in document order", () => {
    expect(inputProblem({ a: "\uD800", b: "\u0000" })?.path).toEqual(["a"]);
    expect(inputProblem(["fine", ["\u0000"], "\uD800"])?.path).toEqual([1, 0]);
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(inputProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    const problem = inputProblem({ input: nested(MAX_JSON_DEPTH) });
    expect(problem?.code).toBe("too_deep");
    expect(problem?.path.slice(0, 1)).toEqual(["input"]);
    expect(problem?.message).toContain(String(MAX_JSON_DEPTH));
  });

  it("refuses 100,000 levels without overflowing the stack", () => {
    expect(inputProblem({ tools: [{ input_schema: nested(100_000) }] })?.code).toBe("too_deep");
  });

  it("takes a smaller limit when given one", () => {
    expect(inputProblem({ a: { b: {} } }, 2)?.code).toBe("too_deep");
    expect(inputProblem({ a: { b: 1 } }, 2)).toBeNull();
  });

  it("checks a record of query or path strings like any value", () => {
    expect(inputProblem({ q: "find\u0000me", limit: "10" })).toMatchObject({ path: ["q"], code: "nul_character" });
  });
});

describe("storable text (what an import keeps rather than refuses)", () => {
  it("drops NULs and replaces lone surrogates, keeping pairs and emoji", () => {
    expect(storableText("a\u0000b")).toBe("ab");
    expect(storableText("x\uD800y\uDC00z")).toBe("x\uFFFDy\uFFFDz");
    expect(storableText("ok 😀 \uD83D\uDE00")).toBe("ok 😀 😀");
  });

  it("fixes every string of a value, keys and deep ones included, and leaves a clean value as it is", () => {
    const clean = { a: ["b", { c: 1 }] };
    expect(storableValue(clean)).toBe(clean);
    const dirty = { "k\u0000": [{ t: "x\u0000y" }, "\uDC00"], n: 3, ok: true, none: null };
    expect(storableValue(dirty)).toEqual({ k: [{ t: "xy" }, "\uFFFD"], n: 3, ok: true, none: null });
    expect(dirty["k\u0000"][0]).toEqual({ t: "x\u0000y" });
    const deep = nested(100_000) as unknown[];
    (deep[0] as unknown[]).push("\u0000");
    expect(inputProblem(storableValue(deep), Number.POSITIVE_INFINITY)).toBeNull();
  });
});
