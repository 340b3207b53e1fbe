import { describe, expect, it } from "vitest";
import { chunkTurns, CONTINUED, parseSections, renderTranscript, toTranscriptTurns, type TranscriptTurn } from "@/lib/context/compaction";
import { groupTurns } from "@/lib/context/turns";
import type { EngineMessage } from "@/lib/context/types";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const count = estimateTextTokens;

function turns(n: number, words = 40): TranscriptTurn[] {
  return Array.from({ length: n }, (_, i) => ({
    turnSeq: i + 1,
    messages: [
      { role: "user" as const, text: `Question ${i + 1}: ${"why does it fail ".repeat(words / 4)}` },
      { role: "assistant" as const, text: `Answer ${i + 1}: ${"because the cache is stale ".repeat(words / 5)}` },
    ],
  }));
}

/** All message text of a chunking, continuation markers removed, per turn. */
function textsByTurn(chunks: TranscriptTurn[][]): Map<number, string> {
  const out = new Map<number, string>();
  for (const chunk of chunks) {
    for (const t of chunk) {
      const text = t.messages.map((m) => m.text.replace(/^\(continued\) /, "")).join("");
      out.set(t.turnSeq, (out.get(t.turnSeq) ?? "") + text);
    }
  }
  return out;
}

describe("toTranscriptTurns / renderTranscript", () => {
  it("flattens turns to text, shows tool calls with their input, and renders a readable transcript", () => {
    const messages: EngineMessage[] = [
      { seq: 1, turnSeq: 1, role: "user", content: [{ type: "text", text: "run the tests" }], tokenCount: 5, protected: false, status: "complete" },
      {
        seq: 2,
        turnSeq: 1,
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "bash", input: { cmd: "npm test" } }],
        tokenCount: 5,
        protected: false,
        status: "complete",
      },
      {
        seq: 3,
        turnSeq: 1,
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "3 failed" }],
        tokenCount: 5,
        protected: false,
        status: "complete",
      },
      { seq: 4, turnSeq: 1, role: "assistant", content: [{ type: "text", text: "Three tests fail." }], tokenCount: 5, protected: false, status: "complete" },
    ];
    const t = toTranscriptTurns(groupTurns(messages));
    expect(t).toEqual([
      {
        turnSeq: 1,
        messages: [
          { seq: 1, role: "user", text: "run the tests", toolResult: false },
          { seq: 2, role: "assistant", text: '[tool: bash] {"cmd":"npm test"}', toolResult: false },
          { seq: 3, role: "user", text: "3 failed", toolResult: true },
          { seq: 4, role: "assistant", text: "Three tests fail.", toolResult: false },
        ],
      },
    ]);
    expect(renderTranscript(t)).toBe(
      '### Turn 1\n**User:** run the tests\n**Assistant:** [tool: bash] {"cmd":"npm test"}\n**Tool result:** 3 failed\n**Assistant:** Three tests fail.',
    );
  });
});

describe("chunkTurns", () => {
  it("returns one chunk when everything fits, and none for no turns", () => {
    const t = turns(3);
    expect(chunkTurns(t, 10_000, count)).toEqual([t]);
    expect(chunkTurns([], 100, count)).toEqual([]);
  });

  it("groups consecutive whole turns, each chunk within the limit, nothing lost", () => {
    const t = turns(40);
    const limit = 500;
    const chunks = chunkTurns(t, limit, count);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.length).toBeGreaterThan(0);
      expect(count(renderTranscript(c))).toBeLessThanOrEqual(limit);
    }
    expect(chunks.flat()).toEqual(t); // same turns, same order, untouched
  });

  it("splits a single oversize turn into marked pieces without dropping text", () => {
    const big: TranscriptTurn = {
      turnSeq: 7,
      messages: [
        { role: "user", text: "Here is the log:\n" + Array.from({ length: 400 }, (_, i) => `line ${i} ok`).join("\n") },
        { role: "assistant", text: "The log shows nothing unusual. ".repeat(200) },
      ],
    };
    const t = [...turns(2), big, ...turns(1).map((x) => ({ ...x, turnSeq: 8 }))];
    const limit = 300;
    const chunks = chunkTurns(t, limit, count);
    for (const c of chunks) {
      expect(c.length).toBeGreaterThan(0);
      expect(count(renderTranscript(c))).toBeLessThanOrEqual(limit);
    }
    const pieces = chunks.flat().filter((x) => x.turnSeq === 7);
    expect(pieces.length).toBeGreaterThan(3);
    expect(CONTINUED).toBe("(continued) ");
    expect(pieces[0].messages[0].text.startsWith("Here is the log:")).toBe(true);
    for (const p of pieces.slice(1)) expect(p.messages[0].text.startsWith("(continued) ")).toBe(true);
    expect(textsByTurn(chunks).get(7)).toBe(big.messages.map((m) => m.text).join(""));
    expect(chunks.flat().map((x) => x.turnSeq)).toEqual([1, 2, ...pieces.map(() => 7), 8]);
  });
});

describe("parseSections", () => {
  it("splits on ### headings, ignoring headings inside code fences", () => {
    const s = "intro\n### Session Summary\nabout X\n\n### Code Changes\n```md\n### not a heading\n```\n### Pending Items\n- a";
    expect(parseSections(s)).toEqual([
      { heading: "", body: "intro" },
      { heading: "Session Summary", body: "about X" },
      { heading: "Code Changes", body: "```md\n### not a heading\n```" },
      { heading: "Pending Items", body: "- a" },
    ]);
    expect(parseSections("")).toEqual([]);
  });
});
