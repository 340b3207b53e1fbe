// A long history through the drop-in (issue 29, point 5): stored in short transactions under a
// renewed lease, each leaving the session on whole turns, so a request cut short mid-way is
// carried on by its retry with every message stored once; beyond the maximum, a 413. The real
// Anthropic SDK calls the route in this process; the database is wrapped only to watch its
// statements and to fail or steal the lease at a chosen batch.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import { MAX_DROP_IN_MESSAGES } from "@/lib/contract/anthropic";
import { canonicalKey, clientView, type KeyBlock } from "@/lib/context/client-history";
import { LOCAL_USER_ID, setDb, withUser, type Database, type Tx } from "@/lib/db";
import { tailMessages } from "@/lib/db/messages";
import { longHistory } from "../../scripts/bench/hostile-history";
import { useHarness } from "./harness";

const h = useHarness();
const MODEL = "claude-haiku-4-5";
const TOOL = { name: "read_file", input_schema: { type: "object" as const } };

const sdk = () =>
  new Anthropic({ apiKey: "local", baseURL: "http://127.0.0.1:3000/api/anthropic", maxRetries: 0, fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined) });

const isBatch = (sql: string) => sql.includes("jsonb_to_recordset");
const isRenewal = (sql: string) => sql.includes("set turn_lock_until = now()");

/** The harness's database, with `onStatement` called before each statement in its transaction. */
function watched(onStatement: (sql: string, tx: Tx) => Promise<void> | void): Database {
  const db = h.db;
  return {
    ...db,
    transaction: <T>(fn: (tx: Tx) => Promise<T>) =>
      db.transaction((tx) =>
        fn({
          query: async <R>(sql: string, params?: unknown[]) => {
            await onStatement(sql, tx);
            return tx.query<R>(sql, params);
          },
          exec: (sql: string) => tx.exec(sql),
        }),
      ),
  };
}

afterEach(() => setDb(h.db));

/** The session's messages as its client sees them, as canonical keys. */
async function storedKeys(sessionId: string): Promise<string[]> {
  const stored = await withUser(LOCAL_USER_ID, (tx) => tailMessages(tx, sessionId, 1));
  return clientView(stored, new Set(["recall"])).map((v) => v.key);
}

const keyOf = (m: Anthropic.MessageParam) => canonicalKey(m.role === "assistant" ? "assistant" : "user", typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as KeyBlock[]));

async function sessionRow(sessionId: string) {
  const [row] = await h.db.transaction((tx) =>
    tx.query<{ busy: boolean; message_count: number; next_seq: number }>(
      "select turn_lock_id is not null as busy, message_count, next_seq from sessions where id = $1",
      [sessionId],
    ),
  );
  return row;
}

/** The one session created since `before` (a new session per first request). */
async function newestSession(): Promise<string> {
  const [row] = await h.db.transaction((tx) => tx.query<{ id: string }>("select id from sessions order by created_at desc limit 1"));
  return row.id;
}

describe("a long history through the drop-in", () => {
  it("is stored in many short transactions, each renewing the lease, every message once", async () => {
    const statements = { batches: 0, renewals: 0 };
    setDb(
      watched((sql) => {
        if (isBatch(sql)) statements.batches++;
        if (isRenewal(sql)) statements.renewals++;
      }),
    );
    const messages = longHistory(301);
    const res = await sdk().messages.create({ model: MODEL, max_tokens: 64, tools: [TOOL], messages }).withResponse();
    expect(res.response.headers.get("threadkeeper-history")).toBe("imported");
    const sessionId = res.response.headers.get("threadkeeper-session-id") ?? "";
    expect(statements.batches).toBeGreaterThan(4);
    // The import's batches renew the lease (the turn's flusher may renew it more).
    expect(statements.renewals).toBeGreaterThanOrEqual(statements.batches);
    const keys = await storedKeys(sessionId);
    expect(keys.slice(0, -1)).toEqual(messages.map(keyOf));
    expect(keys).toHaveLength(302);
    const row = await sessionRow(sessionId);
    expect(row.message_count).toBe(302);
    expect(row.next_seq).toBe(303);
  });

  it("cut short by a failed write, leaves whole turns and no lease; the retry stores the rest once", async () => {
    let batches = 0;
    setDb(
      watched((sql) => {
        if (isBatch(sql) && ++batches === 4) throw new Error("disk full (injected)");
      }),
    );
    const messages = longHistory(241, 7);
    const failed = await sdk()
      .messages.create({ model: MODEL, max_tokens: 64, tools: [TOOL], messages })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    setDb(h.db);
    const sessionId = await newestSession();
    const row = await sessionRow(sessionId);
    expect(row.busy).toBe(false);
    const partial = await storedKeys(sessionId);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(240);
    expect(partial).toEqual(messages.slice(0, partial.length).map(keyOf));
    // Whole turns: what follows the stored part starts a turn (a user's message, not a tool result).
    const next = messages[partial.length];
    expect(next.role).toBe("user");
    expect(typeof next.content === "string" || next.content.every((b) => b.type !== "tool_result")).toBe(true);

    const retried = await new Anthropic({
      apiKey: "local",
      baseURL: "http://127.0.0.1:3000/api/anthropic",
      maxRetries: 0,
      fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined),
      defaultHeaders: { "threadkeeper-session-id": sessionId },
    })
      .messages.create({ model: MODEL, max_tokens: 64, tools: [TOOL], messages })
      .withResponse();
    expect(retried.response.headers.get("threadkeeper-history")).toBe("imported");
    const keys = await storedKeys(sessionId);
    expect(keys.slice(0, -1)).toEqual(messages.map(keyOf));
  });

  it("stops writing when its lease was taken over, and says so", async () => {
    let batches = 0;
    setDb(
      watched(async (sql, tx) => {
        // Another holder takes the session between the second and third batch (as after an expiry).
        if (isRenewal(sql) && batches === 2) await tx.query("update sessions set turn_lock_id = gen_random_uuid() where turn_lock_id is not null");
        if (isBatch(sql)) batches++;
      }),
    );
    const messages = longHistory(241, 3);
    const failed = await sdk()
      .messages.create({ model: MODEL, max_tokens: 64, tools: [TOOL], messages })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    expect((failed as Error).message).toMatch(/lost its hold on the session/);
    setDb(h.db);
    expect(batches).toBe(2);
    const partial = await storedKeys(await newestSession());
    expect(partial).toEqual(messages.slice(0, partial.length).map(keyOf));
  });

  it(`refuses more than ${MAX_DROP_IN_MESSAGES} messages with a 413 in the API's shape, creating nothing`, async () => {
    const before = await h.db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from sessions"));
    const messages = Array.from({ length: MAX_DROP_IN_MESSAGES + 1 }, (_, i): Anthropic.MessageParam => ({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}` }));
    const err = await sdk()
      .messages.create({ model: MODEL, max_tokens: 64, messages })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const api = err as InstanceType<typeof Anthropic.APIError>;
    expect(api.status).toBe(413);
    expect(api.error).toMatchObject({ type: "error", error: { type: "request_too_large" } });
    expect(api.message).toContain(String(MAX_DROP_IN_MESSAGES));
    const after = await h.db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from sessions"));
    expect(after[0].n).toBe(before[0].n);
  });
});
