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
});
