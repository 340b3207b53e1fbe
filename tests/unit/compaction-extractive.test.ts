import { describe, expect, it } from "vitest";
import {
  extractiveSummary,
  extractMustKeep,
  parseSections,
  SUMMARY_HEADINGS,
  verifySummary,
  type TranscriptTurn,
} from "@/lib/context/compaction";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const count = estimateTextTokens;

function devTurns(n: number): TranscriptTurn[] {
  const out: TranscriptTurn[] = [];
  for (let i = 0; i < n; i++) {
    const t = i + 2;
    out.push({
      turnSeq: t,
      messages: [
        { role: "user", text: `Turn ${t} question: why does the job in src/jobs/job${t}.ts retry forever? Some more context follows here.` },
        {
          role: "assistant",
          text: [
            `We decided to cap retries at ${t} for job${t} instead of retrying forever.`,
            `Error: job${t} exceeded RETRY_LIMIT_${t}`,
            `TODO: add a test for job${t}.`,
            "```ts\n" + `export const maxRetries${t} = ${t};` + "\n```",
            `Details at https://example.dev/jobs/${t} and the helper \`retryJob${t}\`.`,
            "Plenty of filler prose explaining the reasoning at length so the turn is not tiny. ".repeat(3),
          ].join("\n\n"),
        },
      ],
    });
  }
  return out;
}

const sectionHeadings = (s: string) => parseSections(s).map((x) => x.heading);

describe("extractiveSummary", () => {
  it("writes the PRD's six sections in order and holds every item when they fit", () => {
    const turns = devTurns(6);
    const items = extractMustKeep(turns);
    const summary = extractiveSummary({ previousSummary: null, turns, items, maxTokens: 4_000, countTokens: count });
    expect(sectionHeadings(summary)).toEqual([...SUMMARY_HEADINGS]);
    expect(items.length).toBeGreaterThan(30);
    for (const item of items) expect(summary).toContain(item.text);
    expect(verifySummary(summary, items, { detailsBudget: 0, countTokens: count }).retentionRate).toBe(1);
    const sections = Object.fromEntries(parseSections(summary).map((s) => [s.heading, s.body]));
    expect(sections["Key Decisions"]).toContain("- We decided to cap retries at 2 for job2 instead of retrying forever.");
    expect(sections["Files Modified"]).toContain("- src/jobs/job2.ts");
    expect(sections["Pending Items"]).toContain("- TODO: add a test for job2.");
    expect(sections["Code Changes"]).toContain("```ts\nexport const maxRetries2 = 2;\n```");
    expect(sections["Important Context"]).toContain("Error: job2 exceeded RETRY_LIMIT_2");
    expect(sections["Session Summary"]).toContain("Turns 2–7 condensed (6 turns)");
  });

  it("stays within maxTokens, dropping low-value content first and never cutting a code fence", () => {
    const turns = devTurns(30);
    const items = extractMustKeep(turns);
    for (const maxTokens of [200, 600, 1_500]) {
      const summary = extractiveSummary({ previousSummary: null, turns, items, maxTokens, countTokens: count });
      expect(count(summary)).toBeLessThanOrEqual(maxTokens);
      expect((summary.match(/```/g) ?? []).length % 2).toBe(0);
      expect(sectionHeadings(summary)).toEqual([...SUMMARY_HEADINGS]);
    }
    const tight = extractiveSummary({ previousSummary: null, turns, items, maxTokens: 600, countTokens: count });
    // Decisions outrank identifiers and the per-turn openers.
    expect(tight).toContain("We decided to cap retries at 2");
    expect(tight).not.toContain("- Turn 2:");
    expect(tight).not.toContain("`retryJob31`");
  });

  it("carries a previous summary forward section by section", () => {
    const previous = [
      "### Session Summary",
      "Building the job runner.",
      "### Key Decisions",
      "- We chose BullMQ over a cron table.",
      "### Code Changes",
      "```ts\nqueue.add('x');\n```",
      "### Files Modified",
      "- src/queue.ts: created",
      "### Pending Items",
      "(none)",
      "### Important Context",
      "- Redis runs on port 6380.",
      "",
      "### Preserved details",
      "**Pending tasks**",
      "- TODO: wire the dashboard.",
    ].join("\n");
    const turns = devTurns(2);
    const summary = extractiveSummary({ previousSummary: previous, turns, items: extractMustKeep(turns, previous), maxTokens: 3_000, countTokens: count });
    const sections = Object.fromEntries(parseSections(summary).map((s) => [s.heading, s.body]));
    expect(sectionHeadings(summary)).toEqual([...SUMMARY_HEADINGS]);
    expect(sections["Session Summary"]).toMatch(/^Building the job runner\./);
    expect(sections["Key Decisions"]).toMatch(/^- We chose BullMQ over a cron table\.\n- We decided to cap retries at 2/);
    expect(sections["Code Changes"]).toContain("```ts\nqueue.add('x');\n```");
    expect(sections["Files Modified"]).toContain("- src/queue.ts: created");
    // The previous "Preserved details" are sorted back into their section.
    expect(sections["Pending Items"]).toContain("- TODO: wire the dashboard.");
    expect(sections["Important Context"]).toContain("- Redis runs on port 6380.");
    expect(summary).not.toContain("Preserved details");
    expect(summary).not.toContain("(none)\n- ");
  });

  it("gives new decisions precedence over carried low-value context when the budget is short", () => {
    const filler = Array.from({ length: 80 }, (_, i) => `- Background note ${i}: the team discussed the sprint board at length.`).join("\n");
    const previous = `### Session Summary\nBuilding the job runner.\n\n### Important Context\n${filler}`;
    const turns = devTurns(3);
    const items = extractMustKeep(turns);
    const summary = extractiveSummary({ previousSummary: previous, turns, items, maxTokens: 700, countTokens: count });
    expect(count(summary)).toBeLessThanOrEqual(700);
    expect(summary).toContain("Building the job runner.");
    expect(summary).toContain("Turns 2–4 condensed (3 turns)");
    for (const item of items.filter((i) => i.kind === "decision" || i.kind === "error")) expect(summary).toContain(item.text);
    expect(summary).not.toContain("Background note 79");
  });

  it("puts a previous summary without the PRD headings under Important Context", () => {
    const turns = devTurns(1);
    const summary = extractiveSummary({
      previousSummary: "We are migrating the billing service to Stripe.",
      turns,
      items: [],
      maxTokens: 1_000,
      countTokens: count,
    });
    const sections = Object.fromEntries(parseSections(summary).map((s) => [s.heading, s.body]));
    expect(sections["Important Context"]).toContain("We are migrating the billing service to Stripe.");
  });

  it("is deterministic", () => {
    const turns = devTurns(5);
    const items = extractMustKeep(turns);
    const a = extractiveSummary({ previousSummary: null, turns, items, maxTokens: 800, countTokens: count });
    const b = extractiveSummary({ previousSummary: null, turns, items, maxTokens: 800, countTokens: count });
    expect(a).toBe(b);
  });
});
