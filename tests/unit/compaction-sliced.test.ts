// The server runs chunking, must-keep extraction and fact extraction in slices (the event loop
// let in between); a slice boundary must never change the answer.
import { describe, expect, it } from "vitest";
import { chunkTurns, chunkTurnsSliced, extractMustKeep, extractMustKeepSliced, type TranscriptTurn } from "@/lib/context/compaction";
import { extractFacts, extractFactsSliced } from "@/lib/context/facts";
import { Slicer, runSliced } from "@/lib/context/yield";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const SAID = "2024-05-08T10:00:00.000Z";

function turns(n: number): TranscriptTurn[] {
  return Array.from({ length: n }, (_, i) => ({
    turnSeq: i + 1,
    messages: [
      { role: "user" as const, seq: 2 * i + 1, at: SAID, text: `I moved to Porto last week and my sister Ann starts at 9am. Edit src/app/f${i}.ts, please.` },
      { role: "assistant" as const, seq: 2 * i + 2, at: SAID, text: `We decided to use \`retryWithBackoff\` in src/lib/retry${i}.ts; TODO: add a test for 42 ms.` },
    ],
  }));
}

describe("sliced compaction work", () => {
  const history = turns(120);

  it("chunks exactly as the synchronous version", async () => {
    expect(await chunkTurnsSliced(history, 2_000, estimateTextTokens)).toEqual(chunkTurns(history, 2_000, estimateTextTokens));
  });

  it("finds the same must-keep items", async () => {
    expect(await extractMustKeepSliced(history, "Earlier: we chose PostgreSQL 15.")).toEqual(extractMustKeep(history, "Earlier: we chose PostgreSQL 15."));
  });

  it("extracts the same facts", async () => {
    const facts = extractFacts(history);
    expect(facts.length).toBeGreaterThan(0);
    expect(await extractFactsSliced(history)).toEqual(facts);
  });

  it("yields to the event loop between slices", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    function* busy() {
      for (let i = 0; i < 20; i++) {
        const end = performance.now() + 5;
        while (performance.now() < end);
        yield;
      }
      return "done";
    }
    expect(await runSliced(busy(), new Slicer(4))).toBe("done");
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });
});
