// Issue 29: the per-character algorithms a request runs stay linear on text built to hurt them.
// Each case took seconds to minutes at 1 MB before its fix; the budgets leave room for a busy
// machine while still failing on anything quadratic.
import { describe, it, expect } from "vitest";
import { checkpointTags, mentionsError } from "@/lib/context/checkpoint-triggers";
import { digestSentences } from "@/lib/context/compaction/digest";
import { extractiveSummary } from "@/lib/context/compaction/extractive";
import { extractMustKeep } from "@/lib/context/compaction/must-keep";
import { engineText, ENGINE_CHARS } from "@/lib/context/compaction/transcript";
import { extractFacts } from "@/lib/context/facts/extract";
import { sentencesOf, splitCode } from "@/lib/context/compaction/prose";
import { dateMentions, resolveRelativeDates } from "@/lib/context/dates";
import { heuristicTitle } from "@/lib/context/titles";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const MB = 1_000_000;
const repeatTo = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** The fastest of three runs: a cold first call (chrono's set-up, the JIT) or another process is not what is measured. */
function timed<T>(run: () => T): { value: T; ms: number } {
  let best = Infinity;
  let value = run();
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    value = run();
    best = Math.min(best, performance.now() - t0);
  }
  return { value, ms: best };
}

describe("sentences", () => {
  it("splits 1 MB of one terminator without retrying inside the run (was quadratic: 2 s at 16 KB)", () => {
    for (const unit of ["!", ".", "?!"]) {
      const { value, ms } = timed(() => sentencesOf(repeatTo(unit, MB)));
      expect(value).toHaveLength(1);
      expect(ms).toBeLessThan(500);
    }
  });

  it("still ends a sentence at a run of terminators, and not after a title", () => {
    expect(sentencesOf("Wait!!! It works. Dr. Patel agreed?! Yes").map((s) => s.text)).toEqual(["Wait!!!", "It works.", "Dr. Patel agreed?!", "Yes"]);
    // One character into a run after a title, as before the fix.
    expect(sentencesOf("Ask Mr.. Smith").map((s) => s.text)).toEqual(["Ask Mr..", "Smith"]);
  });

  it("digests a 1 MB run of punctuation in bounded time", () => {
    const { ms } = timed(() => digestSentences([{ turnSeq: 1, messages: [{ role: "user", text: repeatTo("!", MB) }] }], estimateTextTokens));
    expect(ms).toBeLessThan(1_000);
  });
});

describe("fenced code", () => {
  it("finds no block among 1 MB of openers that nothing closes (was quadratic)", () => {
    const { value, ms } = timed(() => splitCode(repeatTo("a```\n", MB)));
    expect(value.blocks).toEqual([]);
    expect(ms).toBeLessThan(500);
  });

  it("pairs openers and closers as before", () => {
    const text = "intro\n```ts\nconst a = 1;\n```\nmiddle ```\n\n  ```\nend";
    const { prose, blocks } = splitCode(text);
    expect(blocks.map((b) => b.text)).toEqual(["```ts\nconst a = 1;\n```", "```\n\n  ```"]);
    expect(prose).toHaveLength(text.length);
    expect(prose.startsWith("intro\n     \n")).toBe(true);
    // An empty block right after its opener closes only when no later line holds a fence.
    expect(splitCode("```\n```\nx\n```").blocks.map((b) => b.text)).toEqual(["```\n```\nx\n```"]);
    expect(splitCode("```\n```").blocks.map((b) => b.text)).toEqual(["```\n```"]);
  });

  it("checks 1 MB of backticks for an error in a code block quickly (was quadratic)", () => {
    const { value, ms } = timed(() => mentionsError("`".repeat(MB)));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(500);
    expect(mentionsError("```\nTypeError: x is undefined\n```")).toBe(true);
  });
});

describe("dates", () => {
  const ref = new Date(2024, 4, 1);

  it("reads at most the first 2,000 characters of a sentence (1 MB of dates took seconds)", () => {
    const text = repeatTo("on 1 May 2023 ", MB);
    const { value, ms } = timed(() => dateMentions(text, ref));
    expect(value.length).toBeGreaterThan(100);
    expect(value.every((m) => m.index < 2_000)).toBe(true);
    expect(ms).toBeLessThan(500);
    const resolved = timed(() => resolveRelativeDates(`${"last week ".repeat(100_000)}`, ref));
    expect(resolved.value.startsWith("last week (the week before")).toBe(true);
    expect(resolved.ms).toBeLessThan(500);
  });

  it("still tells a routine and a verb from a date by the words before it", () => {
    expect(dateMentions("We meet every Monday.", ref)).toEqual([]);
    expect(dateMentions(`${"x".repeat(60)} We met in March.`, ref).map((m) => m.text)).toEqual(["March"]);
  });
});

describe("per-turn cues and titles", () => {
  const lines = repeatTo("a\n", MB);

  it("reads a bounded part of a 1 MB message for checkpoint cues (2 s before)", () => {
    const facts = { userText: lines, replyText: lines, previousTurnHadError: false, messagesSinceLast: 1, msSinceLast: 1 };
    expect(timed(() => checkpointTags(facts)).ms).toBeLessThan(500);
    expect(checkpointTags({ ...facts, replyText: `We decided to use Postgres.\n${lines}` })).toContain("decision");
  });

  it("finds a title at either end of a 1 MB paste, reading only its ends (3 s before)", () => {
    const { value, ms } = timed(() => heuristicTitle(`${lines}\nWhy does the parser hang on this input?`));
    expect(value).toBe("Why does the parser hang on this input");
    expect(ms).toBeLessThan(500);
  });
});

describe("the extractive engine on a huge message", () => {
  const paste = `Please check config/app.yaml first.\n${repeatTo("a\n", MB)}\nFinally it failed with TypeError: cannot read 'id' at src/server/routes.ts`;
  const turns = [{ turnSeq: 1, messages: [{ role: "user" as const, text: paste, at: "2024-05-01T10:00:00Z" }] }];

  it("reads both ends of each message, at most ENGINE_CHARS (4 s for the extractive summary before)", () => {
    const text = engineText(paste);
    expect(text.length).toBeLessThanOrEqual(ENGINE_CHARS + 3);
    expect(text.startsWith("Please check config/app.yaml first.\n")).toBe(true);
    expect(text.endsWith("at src/server/routes.ts")).toBe(true);
    expect(engineText("short")).toBe("short");
    const { value: items, ms } = timed(() => extractMustKeep(turns));
    expect(items.map((i) => i.text)).toEqual(expect.arrayContaining(["config/app.yaml", "src/server/routes.ts"]));
    expect(ms).toBeLessThan(500);
    const summary = timed(() => extractiveSummary({ previousSummary: null, turns, items, maxTokens: 2_000, countTokens: estimateTextTokens }));
    expect(summary.value).toContain("src/server/routes.ts");
    expect(summary.ms).toBeLessThan(1_000);
    expect(timed(() => extractFacts(turns)).ms).toBeLessThan(500);
  });
});
