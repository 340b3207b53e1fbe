import { describe, expect, it } from "vitest";
import { fitText, resumeText, type ResumeInput, type ResumeMessage } from "@/lib/context/resume";
import { firstCurrentTurn } from "@/lib/context/retries";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const SESSION = "7d9f3c2e-1b4a-4c5d-8e6f-0a1b2c3d4e5f";

/** `turns` turns of a question and an answer each, seqs from 1; `say(turn, role)` writes them. */
function conversation(turns: number, say = (t: number, role: string) => `${role === "user" ? "Question" : "Answer"} ${t}: ${"the ferry schedule changes in spring ".repeat(8)}`) {
  const out: ResumeMessage[] = [];
  for (let t = 1; t <= turns; t++) {
    for (const role of ["user", "assistant"] as const) out.push({ seq: out.length + 1, turnSeq: t, role, text: say(t, role), status: "complete" });
  }
  return out;
}

function input(messages: ResumeMessage[], extra: Partial<ResumeInput> = {}): ResumeInput {
  return { sessionId: SESSION, summary: null, facts: [], first: messages.filter((m) => m.turnSeq === 1), recent: messages, lastSeq: messages.at(-1)?.seq ?? 0, budget: 8_000, ...extra };
}

describe("resume_session's selection", () => {
  it("a short session whole: how it began and every later turn, nothing said to be missing", () => {
    const messages = conversation(4);
    const r = resumeText(input(messages));
    expect(r.shown).toEqual(messages.map((m) => m.seq));
    expect(r.omitted).toBe(0);
    expect(r.cut).toEqual([]);
    expect(r.text).toContain("## How it began\n**user:** Question 1:");
    expect(r.text).toContain("## The latest turns\n**user:** Question 2:");
    expect(r.text).not.toContain("not shown");
  });

  it("a long one: the first turn, the newest turns that fit, newest first, and how many are left out", () => {
    const messages = conversation(300);
    const r = resumeText(input(messages));
    expect(estimateTextTokens(r.text)).toBeLessThanOrEqual(8_000);
    expect(r.shown.slice(0, 2)).toEqual([1, 2]);
    // The latest turns are the newest, contiguous, whole turns ending with the last message.
    const recent = r.shown.slice(2);
    expect(recent.at(-1)).toBe(600);
    expect(recent).toEqual(Array.from({ length: recent.length }, (_, i) => 600 - recent.length + 1 + i));
    expect(recent.length % 2).toBe(0);
    expect(recent.length).toBeGreaterThan(20);
    const between = recent[0] - 2 - 1;
    expect(r.omitted).toBe(between);
    expect(r.text).toContain(`[… ${between.toLocaleString("en-US")} earlier messages not shown; use search_history with session_id ${SESSION}`);
    // The note sits between how it began and the latest turns.
    expect(r.text.indexOf("How it began")).toBeLessThan(r.text.indexOf("earlier messages not shown"));
    expect(r.text.indexOf("earlier messages not shown")).toBeLessThan(r.text.indexOf("The latest turns"));
  });

  it("stays within every budget, and a larger one shows more", () => {
    const messages = conversation(300);
    const shown = [1_000, 4_000, 8_000, 20_000, 50_000].map((budget) => {
      const r = resumeText(input(messages, { budget, summary: "We chose PostgreSQL. ".repeat(2_000), facts: Array.from({ length: 2_000 }, (_, i) => `Fact number ${i} about the ferry.`) }));
      expect(estimateTextTokens(r.text), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(r.text).toContain("## Summary of the earlier turns");
      expect(r.text).toMatch(/more: get_session_context\)/);
      return r.shown.length;
    });
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown.at(-1)).toBeGreaterThan(shown[0]);
  });

  it("cuts a message too long for its share with a marker, and still shows the turn", () => {
    const huge = "The log says: " + "connection reset by peer; retrying in 5s. ".repeat(40_000);
    const messages = conversation(6, (t, role) => (t === 6 && role === "assistant" ? huge : `${role} ${t}`));
    const r = resumeText(input(messages, { budget: 4_000 }));
    expect(estimateTextTokens(r.text)).toBeLessThanOrEqual(4_000);
    expect(r.cut).toEqual([12]);
    expect(r.shown).toContain(12);
    expect(r.text).toMatch(/\*\*assistant:\*\* The log says: connection reset by peer;[^]*\[… [\d,]+ more characters not shown\]/);
    // What was cut is small enough to leave the turns before it their room.
    expect(r.shown).toContain(10);
  });

  it("a newest turn too long to fit whole is cut to what is left rather than dropped", () => {
    const messages = conversation(3, (t, role) => `${role} ${t} `.repeat(t === 3 ? 5_000 : 10));
    const r = resumeText(input(messages, { budget: 1_000 }));
    expect(estimateTextTokens(r.text)).toBeLessThanOrEqual(1_000);
    expect(r.shown).toContain(6);
    expect(r.cut).toContain(6);
  });

  it("shows the current versions only: an edited turn and a regenerated reply's earlier versions are left out", () => {
    const messages: ResumeMessage[] = [
      { seq: 1, turnSeq: 1, role: "user", text: "Plan the trip.", status: "complete" },
      { seq: 2, turnSeq: 1, role: "assistant", text: "Day one: Oslo.", status: "complete" },
      { seq: 3, turnSeq: 2, role: "user", text: "Make it Bergen.", status: "complete" },
      { seq: 4, turnSeq: 2, role: "assistant", text: "First draft.", status: "complete" },
      { seq: 5, turnSeq: 2, role: "assistant", text: "Second draft.", status: "complete", restartsTurn: true },
      { seq: 6, turnSeq: 3, role: "user", text: "Make it Trondheim.", status: "complete", supersedesTurn: 2 },
      { seq: 7, turnSeq: 3, role: "assistant", text: "", status: "interrupted" },
      { seq: 8, turnSeq: 3, role: "assistant", text: "Trondheim it is.", status: "complete" },
    ];
    const r = resumeText(input(messages));
    expect(r.shown).toEqual([1, 2, 6, 8]);
    expect(r.text).not.toContain("Bergen");
    expect(r.text).not.toContain("draft");
  });

  it("finds the first turn no edit replaced", () => {
    expect(firstCurrentTurn([])).toBe(1);
    expect(firstCurrentTurn([[1, 2]])).toBe(2);
    expect(firstCurrentTurn([[2, 3]])).toBe(1);
    expect(firstCurrentTurn([[1, 2], [2, 5]])).toBe(5);
  });

  it("fitText keeps a text that fits, cuts one that does not, never inside a surrogate pair", () => {
    expect(fitText("short", 100)).toEqual({ text: "short", cut: false });
    const emoji = "😀".repeat(5_000);
    const cut = fitText(emoji, 300);
    expect(cut?.cut).toBe(true);
    expect(estimateTextTokens(cut?.text ?? "")).toBeLessThanOrEqual(300);
    expect(cut?.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(fitText(emoji, 10)).toBeNull();
  });
});
