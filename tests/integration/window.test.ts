import { describe, expect, it } from "vitest";
import * as protectRoute from "@/app/api/context/protect/[message_id]/route";
import type { MessageJson, SendResultJson } from "@/lib/contract";
import { countRequestTokens } from "../fake-anthropic/server";
import { contextStatus, history, newSession, params, postMessage, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();

// 200K window − R (min(50 %, 64K max output) = 64K) − S (30 % = 60K) = 76K capacity.
// Compaction is off: these tests prove the sliding guarantee on its own.
const TIGHT = { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false };
const CAPACITY = 76_000;

async function sendOk(id: string, content: string): Promise<SendResultJson> {
  const { res, body } = await sendJson(id, `[[reply:ok]] ${content}`);
  expect(res.status).toBe(201);
  return body;
}

async function protect(messageId: string, on: boolean): Promise<Response> {
  const r = req(on ? "POST" : "DELETE", `/api/context/protect/${messageId}`);
  return on ? protectRoute.POST(r, params({ message_id: messageId })) : protectRoute.DELETE(r, params({ message_id: messageId }));
}

const sentInputs = () =>
  h.fake.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => countRequestTokens(r.body as Parameters<typeof countRequestTokens>[0]));

describe("the sliding window", () => {
  it("never sends more than capacity, keeps the first and protected turns, and marks the cutoff", async () => {
    const s = await newSession({ settings: TIGHT });
    const first = await sendOk(s.id, "Project brief: keep the API stable.");
    const turns: SendResultJson[] = [];
    for (let i = 0; i < 3; i++) turns.push(await sendOk(s.id, prose(12_000, i)));
    // Protect turn 3 (the second big one) before it could slide out.
    expect((await protect(turns[1].user_message.id, true)).status).toBe(200);
    const notices: string[] = [];
    for (let i = 3; i < 9; i++) notices.push(...(await sendOk(s.id, prose(12_000, i))).notices.map((n) => n.kind));
    expect(notices).toContain("window_slid");

    // The real (fake API's) count of every request stayed under capacity.
    for (const n of sentInputs()) expect(n).toBeLessThanOrEqual(CAPACITY);
    // Near the threshold the exact count endpoint was consulted.
    expect(h.fake.requests.some((r) => r.path === "/v1/messages/count_tokens")).toBe(true);

    const page = await history(s.id);
    const byId = new Map(page.messages.map((m) => [m.id, m]));
    expect(page.window.cutoff_turn_seq).toBeGreaterThan(3);
    expect(page.window.pinned_turn_seqs).toEqual([1, 3]);
    expect(byId.get(first.user_message.id)?.in_window).toBe(true);
    expect(byId.get(turns[0].user_message.id)?.in_window).toBe(false);
    expect(byId.get(turns[1].user_message.id)?.in_window).toBe(true);
    // Nothing was deleted: every message is still in the history.
    expect(page.messages).toHaveLength(20);

    // The last request to Claude began with the first turn and contained the protected one.
    const last = h.fake.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body as {
      messages: { content: { text?: string }[] }[];
    };
    const texts = last.messages.map((m) => m.content.map((b) => b.text ?? "").join(""));
    expect(texts[0]).toContain("Project brief");
    expect(texts.some((t) => t.includes(prose(12_000, 1)))).toBe(true);
    expect(texts.some((t) => t.includes(prose(12_000, 0)))).toBe(false);

    const status = await contextStatus(s.id);
    expect(status.capacity_tokens).toBe(CAPACITY);
    expect(status.current_tokens).toBeLessThanOrEqual(CAPACITY);
  });

  it("unprotecting a turn before the cutoff lets it leave the window; protecting brings it back", async () => {
    const s = await newSession({ settings: TIGHT });
    await sendOk(s.id, "First turn.");
    const early = await sendOk(s.id, prose(12_000, 20));
    for (let i = 21; i < 27; i++) await sendOk(s.id, prose(12_000, i));
    let page = await history(s.id);
    expect(page.messages.find((m) => m.id === early.user_message.id)?.in_window).toBe(false);

    const res = await protect(early.user_message.id, true);
    const protectedMsg = ((await res.json()) as { message: MessageJson }).message;
    expect(protectedMsg).toMatchObject({ protected: true, in_window: true });
    page = await history(s.id);
    expect(page.window.pinned_turn_seqs).toContain(early.user_message.turn_seq);

    const un = ((await (await protect(early.user_message.id, false)).json()) as { message: MessageJson }).message;
    expect(un).toMatchObject({ protected: false, in_window: false });
  });

  it("rejects a message that alone exceeds capacity without losing it", async () => {
    const s = await newSession({ settings: TIGHT });
    await sendOk(s.id, "First turn.");
    const res = await postMessage(s.id, { content: prose(90_000, 3) }, { accept: "application/json" });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe("context_overflow");
    const page = await history(s.id);
    expect(page.messages.at(-1)?.text).toBe(prose(90_000, 3));
  });

  it("protect answers 404 for an unknown message", async () => {
    const res = await protect("5b0e7a51-7d51-4b8e-9d0c-000000000000", true);
    expect(res.status).toBe(404);
  });
});
