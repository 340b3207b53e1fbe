// SIGTERM to a real `next start` process of the built app, on the real PostgreSQL 15 database,
// while two replies stream from the fake Anthropic server: one that finishes within the grace
// period and one that does not. New API requests meanwhile get 503 `shutting_down`; the process
// exits by itself soon after the grace period; restarted on the same database, it shows both
// conversations exactly once, the short reply complete, the long one interrupted with the text
// it had, and both sessions free for the next message.
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagesPageJson, SessionJson } from "@/lib/contract";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { api, startApp, type AppInstance } from "./app";
import { pgContext, readyPg } from "./context";

const available = pgContext().available;

const GRACE_MS = 4_000;
const LONG_REPLY = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen";

describe.skipIf(!available)("real PostgreSQL 15: graceful shutdown of a real server", () => {
  let fake: FakeAnthropic;
  let admin: Sql;
  const apps: AppInstance[] = [];

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    admin = postgres(readyPg().superuserUrl, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await fake?.close();
    await admin?.end({ timeout: 5 });
  });

  const env = () => ({
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: fake.url,
    THREADKEEPER_MODEL: "claude-haiku-4-5",
    THREADKEEPER_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    THREADKEEPER_LOG_FORMAT: "json",
  });

  async function newSession(app: AppInstance, title: string): Promise<string> {
    const res = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title });
    expect(res.status).toBe(201);
    return res.body.session.id;
  }

  /** Starts a streamed send; resolves with the whole event stream once the server ends it. */
  function streamSend(app: AppInstance, sessionId: string, content: string): Promise<string> {
    return fetch(`${app.base}/api/session/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content }),
    }).then((r) => r.text());
  }

  async function replyStarted(sessionId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [row] = await admin<{ n: number }[]>`select count(*)::int as n from messages where session_id = ${sessionId} and role = 'assistant' and text <> ''`;
      if (row.n > 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no reply text saved in session ${sessionId}`);
  }

  it("SIGTERM: 503 for new requests, the grace period for turns in flight, then exit; a restart finds every message once", async () => {
    const app = await startApp("instance", readyPg().appUrl, env());
    apps.push(app);
    const short = await newSession(app, "finishes in time");
    const long = await newSession(app, "cut off");
    // Steps are taken in order of the calls: the long reply first, then the short one.
    fake.enqueue({ kind: "slow", text: LONG_REPLY, delayMs: 60_000 });
    const longStream = streamSend(app, long, "Write a long answer, slowly.");
    await replyStarted(long);
    fake.enqueue({ kind: "slow", text: "Short and done.", delayMs: 1_500 });
    const shortStream = streamSend(app, short, "A short answer, please.");
    await replyStarted(short);

    const signalled = Date.now();
    app.signal("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    const during = await api<{ error: { code: string } }>(app, "GET", "/api/session?limit=1");
    expect(during.status, app.output().slice(-3000)).toBe(503);
    expect(during.body.error.code).toBe("shutting_down");
    expect(during.headers.get("retry-after")).toBe("5");

    const code = await app.exited;
    const took = Date.now() - signalled;
    expect(code, app.output().slice(-3000)).toBe(0);
    // It waited for the grace period (the long turn was still running), and not much longer.
    expect(took).toBeGreaterThanOrEqual(GRACE_MS - 500);
    expect(took).toBeLessThan(GRACE_MS + 8_000);
    // Both streams were ended by the server, each with its saved reply.
    const [longEvents, shortEvents] = await Promise.all([longStream, shortStream]);
    expect(shortEvents).toContain('"status":"complete"');
    expect(longEvents).toContain('"status":"interrupted"');
    expect(longEvents).toContain("event: done");
    // The JSON log named what it did.
    const lines = app
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.some((l) => l.level === "info" && l.msg.includes("shutting down"))).toBe(true);
    expect(lines.some((l) => l.msg.includes("shut down in"))).toBe(true);

    const again = await startApp("instance, restarted", readyPg().appUrl, env());
    apps.push(again);
    // Nothing was left streaming for the start-up sweep to find.
    expect(again.output()).not.toContain("cut off by a restart");
    const history = async (id: string) => (await api<MessagesPageJson>(again, "GET", `/api/session/${id}/messages?limit=50`)).body.messages;
    const shortMessages = await history(short);
    expect(shortMessages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(shortMessages[1].text).toBe("Short and done.");
    const longMessages = await history(long);
    expect(longMessages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "interrupted"],
    ]);
    expect(longMessages[1].text.length).toBeGreaterThan(0);
    expect(LONG_REPLY.startsWith(longMessages[1].text.trim())).toBe(true);
    // Exactly once in the database too, and the leases were released, not left to expire.
    const rows = await admin<{ session_id: string; n: number; locked: boolean }[]>`
      select m.session_id, count(*)::int as n, bool_or(s.turn_lock_id is not null) as locked
      from messages m join sessions s on s.id = m.session_id
      where m.session_id in (${short}, ${long}) group by m.session_id`;
    expect(rows.map((r) => [r.n, r.locked])).toEqual([
      [2, false],
      [2, false],
    ]);
    // The next message in the cut-off session is answered at once.
    const next = await api<{ assistant_message: { status: string } }>(again, "POST", `/api/session/${long}/messages`, { content: "[[reply:Back.]] Are you back?" });
    expect(next.status).toBe(201);
    expect(next.body.assistant_message.status).toBe("complete");
  });
});
