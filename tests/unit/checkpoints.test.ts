import { describe, expect, it } from "vitest";
import { checkpointTags, heuristicTitle, mentionsError, type TurnFacts } from "@/lib/context/checkpoints";

const quiet: TurnFacts = { userText: "hi", replyText: "Hello!", previousTurnHadError: false, messagesSinceLast: 2, msSinceLast: 1000 };
const tags = (over: Partial<TurnFacts>) => checkpointTags({ ...quiet, ...over }).sort();

describe("checkpoint triggers", () => {
  it("stays quiet for small talk", () => {
    expect(tags({})).toEqual([]);
  });

  it("detects code, files and decisions, merged into one checkpoint's tags", () => {
    expect(tags({ replyText: "We decided to use zod. Update lib/api/http.ts:\n```ts\nconst a = 1;\n```" })).toEqual([
      "code",
      "decision",
      "file",
    ]);
  });

  it("detects an error followed by success, but not success without a prior error", () => {
    expect(tags({ previousTurnHadError: true, replyText: "Fixed — all tests pass now." })).toContain("error_fix");
    expect(tags({ previousTurnHadError: false, replyText: "Fixed — all tests pass now." })).not.toContain("error_fix");
    expect(tags({ previousTurnHadError: true, replyText: "It still fails with TypeError: boom" })).not.toContain("error_fix");
  });

  it("detects a completed task", () => {
    expect(tags({ replyText: "Done: the migration task is completed." })).toContain("task_complete");
    expect(tags({ replyText: "- [x] write the tests" })).toContain("task_complete");
  });

  it("is periodic every N messages or after the time interval", () => {
    expect(tags({ messagesSinceLast: 10 })).toEqual(["periodic"]);
    expect(tags({ messagesSinceLast: 9 })).toEqual([]);
    expect(tags({ msSinceLast: 5 * 60 * 1000 })).toEqual(["periodic"]);
    expect(tags({ msSinceLast: null })).toEqual([]);
  });

  it("recognizes error text", () => {
    expect(mentionsError("npm ERR! code ERR_SOCKET_TIMEOUT")).toBe(true);
    expect(mentionsError("Everything looks good.")).toBe(false);
  });
});

describe("heuristic titles", () => {
  it("uses the first sentence, capitalized, without trailing punctuation", () => {
    expect(heuristicTitle("fix the flaky upload test. It times out on CI.")).toBe("Fix the flaky upload test");
  });

  it("cuts long sentences at a word boundary", () => {
    const t = heuristicTitle("please refactor the whole authentication layer so that tokens refresh silently in the background");
    expect(t.length).toBeLessThanOrEqual(61);
    expect(t.endsWith("…")).toBe(true);
    expect(t.startsWith("Please refactor the whole")).toBe(true);
  });

  it("ignores code and falls back for empty text", () => {
    expect(heuristicTitle("```ts\nconst x = 1;\n```")).toBe("New session");
  });
});
