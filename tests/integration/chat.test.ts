import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import * as oneSession from "@/app/api/session/[id]/route";
import * as messagesRoute from "@/app/api/session/[id]/messages/route";
import * as statusRoute from "@/app/api/context/status/route";
import type { SessionJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { contextStatus, history, newSession, ofType, params, postMessage, readSse, req, sendJson, useHarness } from "./harness";

const h = useHarness();

const send = postMessage;
const status = contextStatus;

describe("sending a message", () => {
  it("streams the saved user message, deltas, the saved reply, the status and done", async () => {
    const s = await newSession({ title: "Streaming" });
    h.fake.enqueue({ kind: "reply", text: "Hello there, how can I help today?" });
    const res = await send(s.id, { content: "Hi Claude" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = await readSse(res);
    // Each text delta comes after its block event (Claude's own, passed on for thinking and the rest).
    expect(events.map((e) => e.event).filter((e) => e !== "block")).toEqual([
      "user_message",
      "usage",
      ...ofType(events, "delta").map(() => "delta"),
      "assistant_message",
      "status",
      "done",
    ]);
    expect(ofType(events, "block").map((b) => b.type)).toEqual(["content_block_start", ...ofType(events, "delta").map(() => "content_block_delta"), "content_block_stop"]);
    expect(ofType(events, "delta").length).toBeGreaterThan(1);
    expect(ofType(events, "delta").map((d) => d.text).join("")).toBe("Hello there, how can I help today?");
    const [reply] = ofType(events, "assistant_message");
    expect(reply).toMatchObject({ role: "assistant", seq: 2, turn_seq: 1, status: "complete" });
    expect(reply.token_count).toBeGreaterThan(0);
    // Claude's own count of the request, as its reply started.
    const [usage] = ofType(events, "usage");
    expect(usage.measured).toBe(true);
    expect(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBeGreaterThan(0);

    const page = await history(s.id);
    expect(page.messages.map((m) => [m.seq, m.role, m.text])).toEqual([
      [1, "user", "Hi Claude"],
      [2, "assistant", "Hello there, how can I help today?"],
    ]);
    // The request the SDK sent carried our system prompt, the message, and max_tokens = R.
    const sent = h.fake.requests.find((r) => r.path === "/v1/messages");
    expect(sent?.body).toMatchObject({ model: "claude-haiku-4-5", stream: true, max_tokens: 40_000 });
  });

  it("answers a single JSON document when asked", async () => {
    const s = await newSession();
    const { res, body } = await sendJson(s.id, "[[reply:plain json]]");
    expect(res.status).toBe(201);
    expect(body.user_message.text).toBe("[[reply:plain json]]");
    expect(body.assistant_message?.text).toBe("plain json");
    expect(body.status.session_id).toBe(s.id);
  });

  it("measures the request and calibrates: from the second request on, status is within 5% of the API's count", async () => {
    const s = await newSession();
    const long = "The migration plan covers src/db/schema.ts, retries with backoff, and the RLS policies. ".repeat(20);
    for (let i = 0; i < 3; i++) await sendJson(s.id, `${long} (${i})`);
    const st = await status(s.id);
    expect(st.measured).toBe(false); // the last reply was added after the last measurement
    expect(st.measured_tokens).toBeGreaterThan(0);
    // What the API would count for the next request right now:
    const lastCall = h.fake.requests.filter((r) => r.path === "/v1/messages").at(-1);
    expect(lastCall).toBeDefined();
    const counted = await countNext(s.id);
    expect(Math.abs(st.current_tokens - counted) / counted).toBeLessThan(0.05);
  });

  it("keeps seq gap-free and turns ordered under concurrent sends", async () => {
    const s = await newSession();
    const results = await Promise.all([1, 2, 3].map((i) => sendJson(s.id, `[[reply:answer ${i}]] question ${i}`)));
    expect(results.map((r) => r.res.status)).toEqual([201, 201, 201]);
    const page = await history(s.id);
    expect(page.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // Every question is directly followed by its own answer, in one turn.
    for (let i = 0; i < 6; i += 2) {
      const [q, a] = [page.messages[i], page.messages[i + 1]];
      expect(q.role).toBe("user");
      expect(a.turn_seq).toBe(q.turn_seq);
      expect(a.text).toBe(`answer ${q.text.slice(-1)}`);
    }
  });

  it("replays a retried send with the same idempotency key instead of answering twice", async () => {
    const s = await newSession();
    const first = await sendJson(s.id, "[[reply:once]] hello", { "idempotency-key": "k-1" });
    const calls = h.fake.requests.length;
    const again = await sendJson(s.id, "[[reply:once]] hello", { "idempotency-key": "k-1" });
    expect(again.res.status).toBe(201);
    expect(again.body.user_message.id).toBe(first.body.user_message.id);
    expect(again.body.assistant_message?.id).toBe(first.body.assistant_message?.id);
    expect(h.fake.requests.length).toBe(calls);
    expect((await history(s.id)).messages).toHaveLength(2);
  });

  it("runs a tool-use loop inside one turn", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "tool_use", name: "lookup", input: { q: "x" }, text: "Let me check." }, { kind: "reply", text: "Done." });
    const events = await readSse(await send(s.id, { content: "use a tool" }));
    const page = await history(s.id);
    expect(page.messages.map((m) => [m.role, m.turn_seq, m.content[0]?.type])).toEqual([
      ["user", 1, "text"],
      ["assistant", 1, "text"],
      ["user", 1, "tool_result"],
      ["assistant", 1, "text"],
    ]);
    expect(page.messages[2].content[0]).toMatchObject({ is_error: true });
    expect(ofType(events, "assistant_message").map((m) => m.text)).toEqual(["Let me check.\n[tool: lookup]", "Done."]);
  });
});

describe("faults", () => {
  it("retries 429/529 transparently", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "error", status: 429 }, { kind: "error", status: 529 }, { kind: "reply", text: "made it" });
    const { res, body } = await sendJson(s.id, "hello");
    expect(res.status).toBe(201);
    expect(body.assistant_message?.text).toBe("made it");
  });

  it("keeps the user message and reports a clear error when Claude keeps failing; retry answers it", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "error", status: 500 }, { kind: "error", status: 500 }, { kind: "error", status: 500 });
    const { res, body } = await sendJson(s.id, "please answer");
    expect(res.status).toBe(502);
    expect(body.error?.code).toBe("upstream_error");
    expect(body.error?.details.user_message.text).toBe("please answer");
    let page = await history(s.id);
    expect(page.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "interrupted"],
    ]);

    h.fake.enqueue({ kind: "reply", text: "second try" });
    const retried = await send(s.id, { retry: true }, { accept: "application/json" });
    expect(retried.status).toBe(201);
    page = await history(s.id);
    // The history keeps the record; the app hides the failed attempt (withoutRetriedAttempts).
    expect(page.messages.map((m) => [m.role, m.status, m.text])).toEqual([
      ["user", "complete", "please answer"],
      ["assistant", "interrupted", ""],
      ["assistant", "complete", "second try"],
    ]);
    // The broken attempt is not sent back to Claude.
    const last = h.fake.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body as { messages: unknown[] };
    expect(last.messages).toHaveLength(1);
  });

  it("keeps a dropped stream's partial reply as interrupted", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "drop", afterChunks: 3, text: "one two three four five six seven" });
    const events = await readSse(await send(s.id, { content: "talk to me" }));
    const [error] = ofType(events, "error");
    expect(error.error.code).toBe("stream_interrupted");
    const [partial] = ofType(events, "assistant_message");
    expect(partial.status).toBe("interrupted");
    expect(partial.text.length).toBeGreaterThan(0);
    expect("one two three four five six seven".startsWith(partial.text)).toBe(true);
    expect(ofType(events, "status")).toHaveLength(1);
  });
});

describe("bad input", () => {
  it.each([
    ["malformed JSON", "{nope", 400, "malformed_json"],
    ["missing content", {}, 400, "invalid_request"],
    ["unknown field", { content: "x", colour: "red" }, 400, "invalid_request"],
    ["wrong type", { content: 42 }, 400, "invalid_request"],
  ])("%s → %i %s, nothing stored", async (_name, body, code, errCode) => {
    const s = await newSession();
    const res = await messagesRoute.POST(req("POST", `/api/session/${s.id}/messages`, body), params({ id: s.id }));
    expect(res.status).toBe(code);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe(errCode);
    expect(json.error.message.length).toBeGreaterThan(5);
    expect((await history(s.id)).messages).toHaveLength(0);
  });

  it("names the wrong field", async () => {
    const s = await newSession();
    const res = await send(s.id, { content: 42 });
    const json = (await res.json()) as { error: { message: string; details: { issues: { path: string }[] } } };
    expect(json.error.details.issues[0].path).toBe("content");
  });

  it("rejects a message over the size limit with 413", async () => {
    process.env.THREADKEEPER_MAX_MESSAGE_BYTES = "1000";
    try {
      const s = await newSession();
      const res = await send(s.id, { content: "x".repeat(1001) });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("message_too_large");
      expect((await history(s.id)).messages).toHaveLength(0);
    } finally {
      delete process.env.THREADKEEPER_MAX_MESSAGE_BYTES;
    }
  });

  it("answers 404 for an unknown or malformed session id", async () => {
    for (const id of ["5b0e7a51-7d51-4b8e-9d0c-000000000000", "not-a-uuid"]) {
      const res = await oneSession.GET(req("GET", `/api/session/${id}`), params({ id }));
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
      expect((await send(id, { content: "hi" })).status).toBe(404);
    }
  });

  it("rejects an unknown model when creating a session", async () => {
    const res = await sessionRoute.POST(req("POST", "/api/session", { model: "gpt-9" }), undefined);
    expect(res.status).toBe(400);
  });
});

describe("another user's data", () => {
  it("is invisible through every route", async () => {
    const other = "00000000-0000-4000-8000-0000000000c3";
    const theirs = await withUser(other, async (tx) => {
      await tx.query("reset role");
      await tx.query("insert into auth.users (id) values ($1) on conflict do nothing", [other]);
      await tx.query("set local role authenticated");
      const [row] = await tx.query<{ id: string }>("insert into sessions (user_id, model) values ($1, 'claude-haiku-4-5') returning id", [other]);
      return row.id;
    });
    expect((await oneSession.GET(req("GET", `/api/session/${theirs}`), params({ id: theirs }))).status).toBe(404);
    expect((await send(theirs, { content: "hi" })).status).toBe(404);
    expect((await statusRoute.GET(req("GET", `/api/context/status?session_id=${theirs}`), undefined)).status).toBe(404);
    const list = (await (await sessionRoute.GET(req("GET", "/api/session"), undefined)).json()) as { sessions: SessionJson[] };
    expect(list.sessions.map((x) => x.id)).not.toContain(theirs);
  });
});

/** The fake's exact count for the request the session would send next. */
async function countNext(id: string): Promise<number> {
  const page = await history(id);
  const last = h.fake.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body as { system: string; model: string; tools?: unknown[] };
  const messages = page.messages.map((m) => ({ role: m.role, content: m.content }));
  const res = await fetch(`${h.fake.url}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test-key", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: last.model, system: last.system, tools: last.tools, messages }),
  });
  return ((await res.json()) as { input_tokens: number }).input_tokens;
}
