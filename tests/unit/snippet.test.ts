// The excerpt and highlights of a history-search hit (lib/search/snippet.ts).
import { describe, expect, it } from "vitest";
import { highlightRuns, queryTerms, snippetOf } from "@/lib/context/snippet";

const marked = (text: string, q: string) =>
  highlightRuns(text, queryTerms(q))
    .filter((r) => r.match)
    .map((r) => r.text);

describe("history-search snippets", () => {
  it("marks whole words that start with a query term, stemmed and case-insensitive, not inside words", () => {
    expect(marked("My sister lands in Lisbon; Lisboners landed too.", "when does my sister land in lisbon")).toEqual([
      "sister",
      "lands",
      "Lisbon",
      "Lisboners",
      "landed",
    ]);
    expect(marked("an island", "land")).toEqual([]);
    expect(marked("nothing here", "zyzzogeton")).toEqual([]);
  });

  it("keeps every character, in order, across the runs", () => {
    const text = "Flights: Marguerite lands at gate B22 — Marguerite!";
    const runs = highlightRuns(text, queryTerms("Marguerite gate"));
    expect(runs.map((r) => r.text).join("")).toBe(text);
    expect(runs.filter((r) => r.match).map((r) => r.text)).toEqual(["Marguerite", "gate", "Marguerite"]);
    expect(highlightRuns("", ["x"])).toEqual([]);
  });

  it("cuts the excerpt around the best match", () => {
    const text = `${"filler words ".repeat(60)}My sister Marguerite lands in Lisbon. ${"more filler ".repeat(60)}`;
    const snippet = snippetOf(text, queryTerms("Marguerite Lisbon"));
    expect(snippet).toContain("Marguerite lands in Lisbon");
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(302);
  });

  it("excerpts a long text as it would a short one, flattening only around the match", () => {
    const around = "the parser keeps a cursor\n\n  into the buffer while Marguerite lands in Lisbon at nine, and then the exporter flushes";
    const short = `${"word ".repeat(2_000)}${around} ${"filler text here ".repeat(200)}`;
    const long = `${"word\n".repeat(40_000)}${around} ${"filler\ttext here ".repeat(20_000)}`;
    const terms = queryTerms("Marguerite Lisbon");
    expect(long.length).toBeGreaterThan(64 * 1024);
    expect(snippetOf(long, terms)).toBe(snippetOf(short, terms));
    // No match: the start, with the ellipsis that says more follows.
    expect(snippetOf(long, queryTerms("zebra"))).toBe(snippetOf(short.replace(/word /g, "word\n"), queryTerms("zebra")));
  });
});
