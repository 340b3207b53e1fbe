// Offline session titles: what the first message asks, not its greeting, command or paste.
import { describe, expect, it } from "vitest";
import { checkpointName, heuristicTitle } from "@/lib/context/titles";

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

  it("skips greetings", () => {
    expect(heuristicTitle("Hi! How do I rotate the staging database password?")).toBe("How do I rotate the staging database password");
    expect(heuristicTitle("Hello Claude, can you review my migration plan?")).toBe("Can you review my migration plan");
    expect(heuristicTitle("Hey there.\nThanks in advance.\nWhy does the build fail on Node 20?")).toBe("Why does the build fail on Node 20");
    expect(heuristicTitle("Hi")).toBe("New session");
  });

  it("skips slash commands, pasted logs and code, and finds the ask after them", () => {
    expect(heuristicTitle("/compact\nsummarize the auth discussion")).toBe("Summarize the auth discussion");
    const log = [
      "2024-05-08 13:56:01 ERROR worker-3 connection reset by peer",
      "    at Socket.onread (node:net:728:14)",
      "[WARN] retrying in 500ms (attempt 2/5)",
      "Why does the upload worker keep dropping connections?",
    ].join("\n");
    expect(heuristicTitle(log)).toBe("Why does the upload worker keep dropping connections");
    expect(heuristicTitle("```ts\nconst x = 1;\n```")).toBe("New session");
    expect(heuristicTitle("[2023-05-08 13:56] Ann: we should move the offsite to Porto")).toBe("We should move the offsite to Porto");
  });
});

describe("checkpoint names", () => {
  it("keeps a label; otherwise names the turn by what was asked, led by what happened", () => {
    expect(checkpointName("completed auth feature", ["task_complete"], "anything")).toBe("completed auth feature");
    expect(checkpointName(null, ["error_fix", "code"], "the upload test still fails. Can you look?")).toBe("Fixed: The upload test still fails");
    expect(checkpointName(null, ["periodic"], "Hi! How do I rotate the staging password?")).toBe("How do I rotate the staging password");
    expect(checkpointName(null, ["code"], "```ts\nconst x = 1;\n```")).toBe("Code written");
    expect(checkpointName(null, ["periodic"], null)).toBe("Automatic checkpoint");
    expect(checkpointName(null, ["pre_compaction"], null)).toBe("Before condensing");
  });
});
