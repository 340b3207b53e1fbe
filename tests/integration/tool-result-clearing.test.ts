// Context editing through the real send path: over the threshold, old tool results are sent as
// placeholders instead of condensing the conversation; the stored messages never change, and
// the cleared part stays the same from request to request (the prompt cache keeps it).
import { describe, expect, it } from "vitest";
import * as historyRoute from "@/app/api/context/history/[session_id]/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import { CLEARED_MARK } from "@/lib/context/clearing";
import type { ContentBlock } from "@/lib/context/types";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { appendMessage } from "@/lib/db/messages";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { contextStatus, history, idle, newSession, params, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function append(sessionId: string, role: "user" | "assistant", content: ContentBlock[], startsTurn = false) {
  await withUser(LOCAL_USER_ID, (tx) =>
    appendMessage(tx, LOCAL_USER_ID, sessionId, {
      role,
      content,
      text: content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? String(b.content) : "")).join("\n"),
      tokenCount: estimateMessageTokens(role, content),
      status: "complete",
      startsTurn,
    }),
  );
}

/** A turn in which Claude called a tool six times, each result about 12K tokens. */
async function toolHeavyTurn(sessionId: string) {
  await append(sessionId, "user", [{ type: "text", text: "Look everything up." }], true);
  for (let i = 0; i < 6; i++) {
    await append(sessionId, "assistant", [{ type: "tool_use", id: `toolu_${i}`, name: "recall", input: { query: `topic ${i}` } }]);
    await append(sessionId, "user", [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: `RESULT-${i} ${prose(12_000, i)}` }]);
  }
  await append(sessionId, "assistant", [{ type: "text", text: "Here is what I found." }]);
}

type SentMessage = { role: string; content: string | { type: string; content?: string }[] };
const lastRequest = () => {
  const calls = h.fake.requests.filter((r) => r.path === "/v1/messages");
  return (calls[calls.length - 1]?.body as { messages: SentMessage[] }).messages;
};
const resultsSent = (messages: SentMessage[]) =>
  messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_result").map((b) => String(b.content))));

describe("clearing old tool results before compacting", () => {
  it("sends the oldest results as placeholders, keeps the newest three, condenses nothing and changes no stored message", async () => {
    const s = await newSession({ title: "Research" });
    const put = await settingsRoute.PUT(
      req("PUT", `/api/context/settings?session_id=${s.id}`, { compaction_threshold: 0.5, compaction_target: 0.3 }),
      undefined,
    );
    expect(put.status).toBe(200);
    await sendJson(s.id, "[[reply:Ready.]] Let's research.");
    await idle(h, s.id);
    await toolHeavyTurn(s.id);
    const before = await contextStatus(s.id);
    expect(before.usage_percent).toBeGreaterThan(50);
    expect(before.cleared_tokens).toBe(0);

    const { res, body } = await sendJson(s.id, "[[reply:Summing up.]] What did we learn?");
    expect(res.status).toBe(201);
    expect(body.notices.map((n) => n.kind)).toContain("tool_results_cleared");
    const sent = resultsSent(lastRequest());
    expect(sent.map((t) => t.startsWith(CLEARED_MARK))).toEqual([true, true, true, false, false, false]);
    expect(sent[3]).toMatch(/^RESULT-3 /);
    expect(body.status.usage_percent).toBeLessThan(50);
    expect(body.status.cleared_tokens).toBeGreaterThan(30_000);

    // Nothing was condensed, and the chat still holds every result in full.
    const compactions = await historyRoute.GET(req("GET", `/api/context/history/${s.id}`), params({ session_id: s.id }));
    expect(((await compactions.json()) as { compactions: unknown[] }).compactions).toHaveLength(0);
    const stored = (await history(s.id)).messages.flatMap((m) => m.content).filter((b) => b.type === "tool_result");
    expect(stored).toHaveLength(6);
    for (const b of stored) expect(String((b as { content: unknown }).content)).toMatch(/^RESULT-\d /);

    // The next request sends the same cleared prefix: the cache is broken once, not every turn.
    await idle(h, s.id);
    const first = JSON.stringify(lastRequest().slice(0, 14));
    await sendJson(s.id, "[[reply:Sure.]] And then?");
    expect(JSON.stringify(lastRequest().slice(0, 14))).toBe(first);
    // Still counted (calibrated by the newest measurement, so not the same figure to the token).
    expect((await contextStatus(s.id)).cleared_tokens).toBeGreaterThan(30_000);
  });

  it("does not clear below the threshold", async () => {
    const s = await newSession({ title: "Light" });
    await sendJson(s.id, "[[reply:Ready.]] Let's research.");
    await idle(h, s.id);
    await toolHeavyTurn(s.id);
    const { body } = await sendJson(s.id, "[[reply:ok]] next");
    expect(body.status.usage_percent).toBeLessThan(80);
    expect(resultsSent(lastRequest()).some((t) => t.startsWith(CLEARED_MARK))).toBe(false);
    expect(body.status.cleared_tokens).toBe(0);
  });
});
