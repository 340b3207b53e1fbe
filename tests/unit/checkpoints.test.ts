import { describe, expect, it } from "vitest";
import { checkpointTags, mentionsError, type TurnFacts } from "@/lib/context/checkpoint-triggers";

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
