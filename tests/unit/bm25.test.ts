// BM25 with conversational context (lib/context/bm25.ts) and the term counts it reads (lib/db/fulltext.ts).
import { describe, expect, it } from "vitest";
import { essentialTerms, idf, neighbourKeys, scoreDocs, standaloneScores, termScore, type ScoredDoc } from "@/lib/context/bm25";
import { lexemeQuery, termCountsOf } from "@/lib/db/fulltext";

const doc = (id: string, seq: number, tf: Record<string, number>, len = 10, sessionId = "s"): ScoredDoc => ({ id, sessionId, seq, len, tf });
const corpus = { docs: 1000, avgLen: 10 };

describe("BM25", () => {
  it("weighs a rare word above a common one, and a short message above a long one with the same words", () => {
    expect(idf(1, 1000)).toBeGreaterThan(idf(500, 1000));
    expect(idf(999, 1000)).toBeGreaterThan(0);
    expect(termScore(1, 1, 5, 10)).toBeGreaterThan(termScore(1, 1, 50, 10));
    // Saturating: the tenth occurrence adds less than the second.
    expect(termScore(1, 2, 10, 10) - termScore(1, 1, 10, 10)).toBeGreaterThan(termScore(1, 10, 10, 10) - termScore(1, 9, 10, 10));
    const terms = [
      { lexeme: "lisbon", df: 2 },
      { lexeme: "said", df: 400 },
    ];
    const rare = doc("rare", 10, { lisbon: 1 });
    const common = doc("common", 20, { said: 1 });
    const scores = scoreDocs([rare, common], [rare, common], terms, corpus);
    expect(scores.get("rare")!).toBeGreaterThan(scores.get("common")!);
  });

  it("scores a reply by the question it answers, within its session only", () => {
    const terms = [{ lexeme: "game", df: 5 }];
    const question = doc("q", 1, { game: 1 });
    const answer = doc("a", 2, {});
    const elsewhere = doc("x", 2, {}, 10, "other");
    const plain = scoreDocs([answer, elsewhere], [answer, elsewhere], terms, corpus);
    const withContext = scoreDocs([answer, elsewhere], [question, answer, elsewhere], terms, corpus);
    expect(plain.get("a")).toBe(0);
    expect(withContext.get("a")!).toBeGreaterThan(0);
    // The other session's message at the same seq gets nothing from it.
    expect(withContext.get("x")).toBe(0);
    // The question itself still outranks its answer.
    expect(scoreDocs([question, answer], [question, answer], terms, corpus).get("q")!).toBeGreaterThan(withContext.get("a")!);
  });

  it("reads the rarest words in full up to the budget, at least one", () => {
    const terms = [
      { lexeme: "common", df: 5000 },
      { lexeme: "rare", df: 10 },
      { lexeme: "mid", df: 900 },
      { lexeme: "unknown", df: 0 },
    ];
    expect(essentialTerms(terms, 1000).map((t) => t.lexeme)).toEqual(["rare", "mid"]);
    expect(essentialTerms(terms, 100).map((t) => t.lexeme)).toEqual(["rare"]);
    expect(essentialTerms([{ lexeme: "common", df: 5000 }], 100).map((t) => t.lexeme)).toEqual(["common"]);
    expect(essentialTerms([{ lexeme: "unknown", df: 0 }], 100)).toEqual([]);
  });

  it("asks for the messages just around the candidates that it has not read", () => {
    const a = doc("a", 5, {});
    const b = doc("b", 6, {});
    expect(neighbourKeys([a], [a, b]).map((k) => k.seq).sort()).toEqual([3, 4]);
    expect(neighbourKeys([doc("c", 1, {})], []).map((k) => k.seq)).toEqual([2]);
  });

  it("counts document frequency among standalone matches and judges length against the document's own kind", () => {
    const summary = { id: "summary", len: 1000, words: ["lisbon", "flight"], avgLen: 1000 };
    const fact = { id: "fact", len: 10, words: ["lisbon"], avgLen: 10 };
    const scores = standaloneScores([summary, fact], 100);
    // Average for its kind, and it holds both words: the long summary is not buried by its length.
    expect(scores.get("summary")!).toBeGreaterThan(scores.get("fact")!);
  });
});

describe("term counts", () => {
  it("reads occurrences from a filtered tsvector's text, quotes and all", () => {
    expect(termCountsOf("'error':2A,5A,12A 'npx':7A")).toEqual({ error: 3, npx: 1 });
    expect(termCountsOf("'o''brien':3A 'stripped'")).toEqual({ "o'brien": 1, stripped: 1 });
    expect(termCountsOf("")).toEqual({});
  });

  it("quotes lexemes into a tsquery so none is parsed again", () => {
    expect(lexemeQuery(["lisbon", "o'brien"])).toBe("'lisbon' | 'o''brien'");
  });
});
