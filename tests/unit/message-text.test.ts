import { describe, expect, it } from "vitest";
import { inlineCode, messagePreview, openFence, previewText } from "@/lib/client/message-text";
import { summarySections, verbatimDetails } from "@/lib/client/summary-sections";
import { sameMessageItemProps, type MessageItemProps } from "@/components/chat/MessageItem";
import type { MessageJson } from "@/lib/contract";

describe("openFence", () => {
  it("tracks fences by character and length", () => {
    expect(openFence("text")).toBeNull();
    expect(openFence("```ts\ncode\n```")).toBeNull();
    expect(openFence("```ts\ncode")).toBe("```");
    expect(openFence("````md\n```\ninner\n```\n")).toBe("````");
    expect(openFence("~~~\n```\n")).toBe("~~~");
    // "``` js" inside a block opens nothing: a closing fence has nothing after it.
    expect(openFence("```\n``` js\n")).toBe("```");
  });
});

describe("messagePreview", () => {
  it("cuts at a paragraph break in the second half of the budget", () => {
    const text = `${"a".repeat(70)}\n\n${"b".repeat(100)}`;
    expect(messagePreview(text, 100)).toBe(`${"a".repeat(70)} …`);
  });

  it("closes a code block the cut falls inside", () => {
    const text = `Intro\n\n\`\`\`py\n${"x = 1\n".repeat(40)}\`\`\`\n\nAfter`;
    const preview = messagePreview(text, 120);
    expect(openFence(preview)).toBeNull();
    expect(preview.endsWith("```\n\n…")).toBe(true);
  });

  it("cuts mid-line when there is no break to use", () => {
    expect(messagePreview("word ".repeat(100), 50)).toBe(`${"word ".repeat(10).trimEnd()} …`);
  });
});

describe("inlineCode", () => {
  it("fences with more backticks than the text holds", () => {
    expect(inlineCode("__init__.py")).toBe("`__init__.py`");
    expect(inlineCode("a `b` c")).toBe("``a `b` c``");
    expect(inlineCode("`x`")).toBe("`` `x` ``");
  });
});

describe("previewText", () => {
  it("drops headings, bold, inline code, fences and link targets from a one-line preview", () => {
    expect(previewText("## Plan Short answer: **yes**, see `ALTER TABLE` and [docs](https://x.example). Check with: ```bash psql -c 1")).toBe(
      "Plan Short answer: yes, see ALTER TABLE and docs. Check with: psql -c 1",
    );
  });

  it("keeps what only looks like markup", () => {
    expect(previewText("src/__init__.py, lib/*.ts, issue #12, C# code")).toBe("src/__init__.py, lib/*.ts, issue #12, C# code");
  });
});

describe("summarySections", () => {
  const summary = [
    "### Session Summary",
    "We fixed the **login** bug.",
    "",
    "### Preserved details",
    "**Decisions**",
    "- we will use *Postgres*",
    "**Files**",
    "- src/__init__.py",
    "- lib/*.ts and app/*.ts",
    "**URLs**",
    "- https://example.com/a_b",
    "**Code**",
    "```py",
    "- not an item",
    "```",
  ].join("\n");

  it("splits on ### headings and keeps markdown in prose bodies", () => {
    const sections = summarySections(summary);
    expect(sections.map((s) => s.title)).toEqual(["Session Summary", "Preserved details"]);
    expect(sections[0].body).toBe("We fixed the **login** bug.");
  });

  it("shows verbatim kinds as inline code, leaving decisions, URLs and code blocks alone", () => {
    const body = summarySections(summary)[1].body;
    expect(body).toContain("- we will use *Postgres*");
    expect(body).toContain("- `src/__init__.py`");
    expect(body).toContain("- `lib/*.ts and app/*.ts`");
    expect(body).toContain("- https://example.com/a_b");
    expect(body).toContain("```py\n- not an item\n```");
  });

  it("leaves lines outside a verbatim label untouched", () => {
    expect(verbatimDetails("- loose item")).toBe("- loose item");
  });
});

describe("sameMessageItemProps", () => {
  const message = { id: "m1" } as MessageJson;
  const toggle = () => undefined;
  const onRetry = () => undefined;
  const base: MessageItemProps = {
    message,
    placement: { firstTurn: false, keptBeforeCutoff: false },
    protecting: false,
    onToggleProtect: toggle,
    retry: null,
    versions: null,
  };

  it("treats a fresh placement object with the same fields as unchanged", () => {
    expect(sameMessageItemProps(base, { ...base, placement: { firstTurn: false, keptBeforeCutoff: false, condensed: false } })).toBe(true);
  });

  it("re-renders when anything the item shows changes", () => {
    expect(sameMessageItemProps(base, { ...base, message: { ...message } })).toBe(false);
    expect(sameMessageItemProps(base, { ...base, protecting: true })).toBe(false);
    expect(sameMessageItemProps(base, { ...base, placement: { firstTurn: false, keptBeforeCutoff: true } })).toBe(false);
    expect(sameMessageItemProps(base, { ...base, retry: { disabled: false, onRetry } })).toBe(false);
    expect(
      sameMessageItemProps({ ...base, retry: { disabled: false, onRetry } }, { ...base, retry: { disabled: true, onRetry } }),
    ).toBe(false);
  });
});
