import { describe, expect, it } from "vitest";
import { DETAILS_HEADING, verifySummary, type MustKeepItem } from "@/lib/context/compaction";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const count = estimateTextTokens;

const ITEMS: MustKeepItem[] = [
  { kind: "decision", text: "We decided to use pgvector instead of a separate vector store." },
  { kind: "error", text: "TypeError: Cannot read properties of undefined (reading 'id')" },
  { kind: "pending_task", text: "TODO: add paging to the memory list." },
  { kind: "file_path", text: "lib/memory/search.ts" },
  { kind: "config", text: "EMBEDDING_DIM=1024" },
  { kind: "url", text: "https://github.com/pgvector/pgvector#hnsw" },
  { kind: "code_block", text: "```ts\nconst k = Math.min(limit, 50);\n```" },
  { kind: "identifier", text: "searchMemories" },
];

describe("verifySummary", () => {
  it("counts items the summary holds, ignoring whitespace and (for sentences) case", () => {
    const summary = [
      "### Key Decisions",
      "- we decided to use   pgvector instead of a separate\nvector store.",
      "### Files Modified",
      "- `lib/memory/search.ts`: new `searchMemories` helper",
    ].join("\n");
    const v = verifySummary(summary, ITEMS.filter((i) => ["decision", "file_path", "identifier"].includes(i.kind)), {
      detailsBudget: 1_000,
      countTokens: count,
    });
    expect(v.retainedByModel).toBe(3);
    expect(v.appended).toEqual([]);
    expect(v.text).toBe(summary);
    expect(v.retentionRate).toBe(1);
  });

  it("matches code, paths and errors case-sensitively", () => {
    const v = verifySummary("Touched LIB/MEMORY/SEARCH.TS", [ITEMS[3]], { detailsBudget: 0, countTokens: count });
    expect(v.retainedByModel).toBe(0);
    expect(v.omitted).toEqual([ITEMS[3]]);
    expect(v.retentionRate).toBe(0);
  });

  it("appends every missing item verbatim under Preserved details, grouped by kind", () => {
    const summary = "### Session Summary\nWorked on memory search.";
    const v = verifySummary(summary, ITEMS, { detailsBudget: 1_000, countTokens: count });
    expect(v.retainedByModel).toBe(0);
    expect(v.appended).toEqual(ITEMS);
    expect(v.omitted).toEqual([]);
    expect(v.retentionRate).toBe(1);
    expect(v.text.startsWith(`${summary}\n\n${DETAILS_HEADING}\n**Decisions**\n- We decided`)).toBe(true);
    for (const item of ITEMS) expect(v.text).toContain(item.text);
    // Code blocks are appended as-is, not bulleted.
    expect(v.text).toContain("**Code**\n```ts\nconst k = Math.min(limit, 50);\n```");
    expect(v.text.indexOf("**Errors**")).toBeLessThan(v.text.indexOf("**Identifiers**"));
  });

  it("respects the budget by rank: decisions and errors stay, identifiers go first", () => {
    const many: MustKeepItem[] = [
      ...ITEMS.slice(0, 2),
      ...Array.from({ length: 40 }, (_, i): MustKeepItem => ({ kind: "identifier", text: `helperFunctionNumber${i}` })),
    ];
    const budget = 80;
    const v = verifySummary("### Session Summary\nx", many, { detailsBudget: budget, countTokens: count });
    expect(v.appended.slice(0, 2)).toEqual(ITEMS.slice(0, 2));
    expect(v.omitted.length).toBeGreaterThan(0);
    expect(v.omitted.every((i) => i.kind === "identifier")).toBe(true);
    const details = v.text.slice(v.text.indexOf(`\n\n${DETAILS_HEADING}`));
    expect(count(details)).toBeLessThanOrEqual(budget);
    expect(v.retentionRate).toBeCloseTo(v.appended.length / many.length, 10);
    expect(v.appended.length + v.omitted.length).toBe(many.length);
  });

  it("skips an item too big for the rest of the budget but keeps filling with smaller ones", () => {
    const bigBlock: MustKeepItem = { kind: "code_block", text: `\`\`\`ts\n${"const filler = 1;\n".repeat(60)}\`\`\`` };
    const small: MustKeepItem = { kind: "identifier", text: "searchMemories" };
    const v = verifySummary("s", [bigBlock, small], { detailsBudget: 40, countTokens: count });
    expect(v.appended).toEqual([small]);
    expect(v.omitted).toEqual([bigBlock]);
    expect(v.retentionRate).toBe(0.5);
  });

  it("appends nothing with a zero budget and records everything missing as omitted, in rank order", () => {
    const v = verifySummary("nothing here", ITEMS, { detailsBudget: 0, countTokens: count });
    expect(v.text).toBe("nothing here");
    expect(v.omitted).toEqual(ITEMS);
    expect(v.retentionRate).toBe(0);
  });

  it("counts an item covered by an appended one as retained without repeating it", () => {
    const block: MustKeepItem = { kind: "code_block", text: "```ts\nexport function searchMemories() {}\n```" };
    const name: MustKeepItem = { kind: "identifier", text: "searchMemories" };
    const v = verifySummary("s", [block, name], { detailsBudget: 200, countTokens: count });
    expect(v.appended).toEqual([block]);
    expect(v.omitted).toEqual([]);
    expect(v.retentionRate).toBe(1);
  });

  it("reports a retention rate of 1 when there are no items", () => {
    const v = verifySummary("s", [], { detailsBudget: 0, countTokens: count });
    expect(v).toEqual({ text: "s", itemsTotal: 0, retainedByModel: 0, appended: [], omitted: [], retentionRate: 1 });
  });
});
