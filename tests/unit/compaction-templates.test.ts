import { describe, expect, it } from "vitest";
import { buildMergeRequest, buildSummaryRequest, CONVERSATION_FACTS_NOTE, isPreset, PRESETS, SUMMARY_HEADINGS } from "@/lib/context/compaction";

describe("presets", () => {
  it("general is the PRD template: MUST PRESERVE list, rules and OUTPUT FORMAT", () => {
    const body = PRESETS.general.body;
    expect(body.startsWith("You are a context summarization assistant. Your task is to condense conversation history while preserving ALL critical technical information.")).toBe(true);
    expect(body).toContain("## MUST PRESERVE (Never lose these):\n1. **Code snippets**: Include full code blocks, especially modified/created files");
    expect(body).toContain("7. **Dependencies**: Libraries, versions, package names mentioned");
    expect(body).toContain("## SUMMARIZATION RULES:\n- Condense conversational back-and-forth into key points");
    expect(body).toContain("### Code Changes\n```[language]\n[code that was created/modified]\n```");
    expect(body.endsWith("### Important Context\n[Any other critical information]")).toBe(true);
  });

  it("every preset asks for the same six headings, in order", () => {
    for (const [id, p] of Object.entries(PRESETS)) {
      const headings = [...p.body.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
      expect(headings, id).toEqual([...SUMMARY_HEADINGS]);
      expect(p.label.length).toBeGreaterThan(0);
    }
    expect(PRESETS.debugging.body).toMatch(/stack traces/);
    expect(PRESETS.debugging.body).toMatch(/Hypotheses tried/);
    expect(PRESETS.code_review.body).toMatch(/Requested changes/);
    expect(PRESETS.code_review.body).toMatch(/Verdicts/);
    expect(PRESETS.architecture.body).toMatch(/Rejected alternatives/);
    expect(PRESETS.architecture.body).toMatch(/Constraints/);
  });

  it("isPreset accepts the four presets only", () => {
    expect(["general", "debugging", "code_review", "architecture"].every(isPreset)).toBe(true);
    expect(isPreset("toString")).toBe(false);
    expect(isPreset("custom-123")).toBe(false);
  });
});

describe("buildSummaryRequest", () => {
  it("uses the template as system prompt and puts the previous summary, transcript and instructions in the user message", () => {
    const req = buildSummaryRequest({
      template: "MY TEMPLATE",
      previousSummary: "### Session Summary\nEarlier work on auth.",
      transcript: "### Turn 5\n**User:** fix login",
      instructions: "  focus on the auth bug ",
    });
    expect(req.system).toBe("MY TEMPLATE");
    expect(req.user).toContain("Existing summary to extend — keep everything still relevant");
    expect(req.user).toContain("Earlier work on auth.");
    expect(req.user).toContain("### Turn 5\n**User:** fix login");
    expect(req.user).toContain("Additional instructions from the user: focus on the auth bug");
    expect(req.user.indexOf("Earlier work on auth.")).toBeLessThan(req.user.indexOf("### Turn 5"));
    expect(req.user).not.toContain("part ");
    // Beyond the PRD's development list: the facts of an ordinary conversation.
    expect(req.user).toContain(CONVERSATION_FACTS_NOTE);
    expect(CONVERSATION_FACTS_NOTE).toMatch(/people.*places.*dates and times.*amounts.*events.*plans.*preferences/);
  });

  it("leaves out what is absent and marks map-reduce parts", () => {
    const req = buildSummaryRequest({ template: "T", previousSummary: null, transcript: "X", instructions: null, part: { index: 2, of: 3 } });
    expect(req.user).not.toContain("Existing summary");
    expect(req.user).not.toContain("Additional instructions");
    expect(req.user).toContain("part 2 of 3");
  });
});

describe("buildMergeRequest", () => {
  it("lists the partial summaries in order with the instructions", () => {
    const req = buildMergeRequest({ template: "T", partials: ["first part", "second part"], instructions: "keep the SQL" });
    expect(req.system).toBe("T");
    expect(req.user.indexOf("first part")).toBeLessThan(req.user.indexOf("second part"));
    expect(req.user).toContain('<part index="2" of="2">');
    expect(req.user).toContain("Additional instructions from the user: keep the SQL");
  });
});
