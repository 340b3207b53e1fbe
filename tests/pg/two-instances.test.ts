// Two real `next start` processes of the built app on one PostgreSQL 15 database, as behind
// a load balancer: everything that must be coordinated (sequence numbers, the turn lease,
// compaction cooldowns, idempotency) lives in Postgres, so it must hold across processes.
// Claude is the fake Anthropic server (a real HTTP server the real SDK talks to).
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompactionJson, MessageJson, MessagesPageJson, SendResultJson, SessionJson } from "@/lib/contract";
import { fromPostgres } from "@/lib/db/driver";
import { sweepStaleStreams } from "@/lib/db/maintenance";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { api, startApp, type AppInstance } from "./app";
import { pgContext, readyPg } from "./context";

const available = pgContext().available;

interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Sends that race for one session; half go to each instance. */
const CONCURRENT_SENDS = 40;
/** Of those, this many idempotency keys are also sent a second time, to the other instance. */
const DUPLICATED_KEYS = 6;

describe.skipIf(!available)("real PostgreSQL 15: two app instances on one database", () => {
  let fake: FakeAnthropic;
  let a: AppInstance;
  let b: AppInstance;
  let admin: Sql;

  beforeAll(async () => {
    const pg = readyPg();
    fake = await startFakeAnthropic();
    const env = {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake.url,
      // A 200K window and one summarizer call per compaction, as in the browser tests.
      THREADKEEPER_MODEL: "claude-haiku-4-5",
      THREADKEEPER_SUMMARY_CHUNK_TOKENS: "1000000",
      // This file races sends for coordination, far above a person's pace: the limits are
      // rate-limits.test.ts's subject, not this one's.
      THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0",
      THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0",
    };
    // Started together: both run the migration runner and the start-up sweep at once. B runs
    // unprepared statements, as behind a transaction-mode pooler: both ways share every test here.
    [a, b] = await Promise.all([
      startApp("instance A", pg.appUrl, env),
      startApp("instance B", pg.appUrl, { ...env, THREADKEEPER_DB_PREPARE: "off" }),
    ]);
    admin = postgres(pg.superuserUrl, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await fake?.close();
    await admin?.end({ timeout: 5 });
  });

  /** Fails with both servers' output, which is where a 500's cause is. */
  function explain(what: string): string {
    return `${what}\n--- instance A ---\n${a.output().slice(-4000)}\n--- instance B ---\n${b.output().slice(-4000)}`;
  }

  async function newSession(on: AppInstance, title: string): Promise<string> {
    const res = await api<{ session: SessionJson }>(on, "POST", "/api/session", { title });
    expect(res.status, explain(`create session: ${JSON.stringify(res.body)}`)).toBe(201);
    return res.body.session.id;
  }

  async function send(on: AppInstance, sessionId: string, content: string, key?: string) {
    return api<SendResultJson | ErrorEnvelope>(
      on,
      "POST",
      `/api/session/${sessionId}/messages`,
      { content },
      key === undefined ? {} : { "idempotency-key": key },
    );
  }

  async function history(on: AppInstance, sessionId: string): Promise<MessageJson[]> {
    const res = await api<MessagesPageJson>(on, "GET", `/api/session/${sessionId}/messages?limit=500`);
    expect(res.status).toBe(200);
    return res.body.messages;
  }

  async function compactions(on: AppInstance, sessionId: string): Promise<CompactionJson[]> {
    const res = await api<{ compactions: CompactionJson[] }>(on, "GET", `/api/context/history/${sessionId}`);
    expect(res.status).toBe(200);
    return res.body.compactions;
  }

  async function leaseReleased(sessionId: string): Promise<boolean> {
    for (let i = 0; i < 400; i++) {
      const [row] = await admin<{ turn_lock_id: string | null }[]>`select turn_lock_id from sessions where id = ${sessionId}`;
      if (row.turn_lock_id === null) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  }

  /** Each message is seq n, each turn a user message directly followed by its own reply. */
  function expectWholeTurns(messages: MessageJson[], turns: number): void {
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 2 * turns }, (_, i) => i + 1));
    messages.forEach((m, i) => {
      expect(m.role).toBe(i % 2 === 0 ? "user" : "assistant");
      expect(m.turn_seq).toBe(Math.floor(i / 2) + 1);
      expect(m.status).toBe("complete");
    });
    for (let i = 0; i < messages.length; i += 2) {
      // The fake echoes the last user message it was sent: each reply answers its own turn.
      expect(messages[i + 1].text).toBe(`Echo: ${messages[i].text}`);
    }
  }

  it(`${CONCURRENT_SENDS} concurrent sends split across both instances stay gap-free and exactly-once`, async () => {
    const sessionId = await newSession(a, "race");
    const sends = Array.from({ length: CONCURRENT_SENDS }, (_, i) => ({
      on: i % 2 === 0 ? a : b,
      content: `message number ${i + 1}`,
      key: `race-${i + 1}`,
    }));
    // The same key once more, to the instance that did not get it: a client retrying elsewhere.
    const retries = sends.slice(0, DUPLICATED_KEYS).map((s) => ({ ...s, on: s.on === a ? b : a }));
    const all = [...sends, ...retries];
    const results = await Promise.all(all.map((s) => send(s.on, sessionId, s.content, s.key)));
    const isDuplicated = (key: string): boolean => all.filter((o) => o.key === key).length > 1;
    all.forEach((s, i) => {
      const why = explain(`${s.on.name} ${s.key}: ${results[i].status} ${JSON.stringify(results[i].body)}`);
      expect(isDuplicated(s.key) ? [201, 409] : [201], why).toContain(results[i].status);
    });

    const messages = await history(b, sessionId);
    expectWholeTurns(messages, CONCURRENT_SENDS);
    const userTexts = messages.filter((m) => m.role === "user").map((m) => m.text);
    expect([...userTexts].sort()).toEqual(sends.map((s) => s.content).sort());

    // Every key is stored exactly once.
    const stored = await admin<{ idempotency_key: string; id: string; n: number }[]>`
      select idempotency_key, min(id::text) as id, count(*)::int as n from messages
      where session_id = ${sessionId} and idempotency_key is not null group by idempotency_key`;
    expect(stored).toHaveLength(CONCURRENT_SENDS);
    expect(stored.filter((k) => k.n !== 1)).toEqual([]);
    const storedId = new Map(stored.map((k) => [k.idempotency_key, k.id]));

    // Either send of a duplicated key may be the one that stores it; the other replays the
    // stored turn (201, same message) or says it is still being answered (409).
    all.forEach((s, i) => {
      const res = results[i];
      const why = explain(`${s.on.name} ${s.key}: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status === 201) expect((res.body as SendResultJson).user_message.id, why).toBe(storedId.get(s.key));
      else expect((res.body as ErrorEnvelope).error.code, why).toBe("request_in_progress");
    });
    for (const r of retries) {
      const answered = all.flatMap((s, i) => (s.key === r.key && results[i].status === 201 ? [i] : []));
      expect(answered.length, `no send of ${r.key} was answered`).toBeGreaterThan(0);
    }

    // A retry after the fact, on either instance, replays without storing anything.
    for (const on of [a, b]) {
      const replay = await send(on, sessionId, sends[0].content, sends[0].key);
      expect(replay.status).toBe(201);
      expect((replay.body as SendResultJson).user_message.id).toBe(storedId.get(sends[0].key));
    }
    expect(await history(a, sessionId)).toHaveLength(2 * CONCURRENT_SENDS);

    // The session row's counters agree with the history both instances wrote.
    const [row] = await admin<{ next_seq: number; message_count: number; last_turn_seq: number }[]>`
      select next_seq, message_count, last_turn_seq from sessions where id = ${sessionId}`;
    expect(row).toMatchObject({ next_seq: 2 * CONCURRENT_SENDS + 1, message_count: 2 * CONCURRENT_SENDS, last_turn_seq: CONCURRENT_SENDS });
  });

  it("the turn lease holds across instances: a send on B waits for the reply A is streaming, and a starting instance leaves it alone", async () => {
    const sessionId = await newSession(a, "lease");
    expect((await send(a, sessionId, "warm-up")).status).toBe(201);

    // The fake takes a while over this one reply ([[slow:…]] directive), holding A's lease.
    const slow = send(a, sessionId, "a long answer please [[slow:2500]]");
    let held: { turn_lock_id: string | null; streaming: number } | undefined;
    for (let i = 0; i < 200 && !held; i++) {
      const [s] = await admin<{ turn_lock_id: string | null; streaming: number }[]>`
        select turn_lock_id, (select count(*)::int from messages m where m.session_id = s.id and m.status = 'streaming') as streaming
        from sessions s where s.id = ${sessionId}`;
      if (s.turn_lock_id !== null && s.streaming > 0) held = s;
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(held, "A's reply never started streaming").toBeDefined();
    // A third instance starting now sweeps replies left streaming by crashed servers: a live
    // lease tells it that this one is still being answered.
    const third = fromPostgres(postgres(readyPg().appUrl, { max: 1, onnotice: () => {} }));
    try {
      expect(await sweepStaleStreams(third, { atStartup: true })).toBe(0);
    } finally {
      await third.close();
    }

    const [first, second] = await Promise.all([slow, send(b, sessionId, "and B right after")]);
    expect(first.status, explain(JSON.stringify(first.body))).toBe(201);
    expect(second.status, explain(JSON.stringify(second.body))).toBe(201);
    const messages = await history(b, sessionId);
    expectWholeTurns(messages, 3);
    expect(messages.map((m) => m.text.replace(/^Echo: /, "reply to: "))).toEqual([
      "warm-up",
      "reply to: warm-up",
      "a long answer please [[slow:2500]]",
      "reply to: a long answer please [[slow:2500]]",
      "and B right after",
      "reply to: and B right after",
    ]);
    // The JSON answer returns once the reply is saved; the turn's follow-up (checkpoint,
    // automatic compaction check) still holds the lease for a moment, then lets it go.
    expect(await leaseReleased(sessionId)).toBe(true);
  });

  /** A session with a few sizeable turns, so a forced compaction has older turns to condense. */
  async function sessionWithHistory(title: string, secondMessageExtra = ""): Promise<string> {
    const sessionId = await newSession(a, title);
    for (let i = 1; i <= 6; i++) {
      const body =
        `Turn ${i}${i === 2 ? secondMessageExtra : ""}: we decided to keep the parser in lib/parse/turn${i}.ts ` +
        "and to measure every change. ".repeat(40);
      const res = await send(i % 2 === 0 ? b : a, sessionId, body);
      expect(res.status, explain(JSON.stringify(res.body))).toBe(201);
    }
    return sessionId;
  }

  it("one compaction at a time per session: the same /compact on both instances applies once", async () => {
    // The directive makes the summarizer slow too (turn 2, the first one condensed, carries it
    // into the transcript), so the first compaction still holds the lease when the second arrives.
    const sessionId = await sessionWithHistory("compact race", " [[slow:1500]]");
    const body = { session_id: sessionId, force: true };
    const results = await Promise.all([
      api<{ compaction: CompactionJson } | ErrorEnvelope>(a, "POST", "/api/context/compact", body),
      api<{ compaction: CompactionJson } | ErrorEnvelope>(b, "POST", "/api/context/compact", body),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0], explain(JSON.stringify(results.map((r) => r.body)))).toBe(201);
    expect([409, 429]).toContain(statuses[1]);
    const refused = results.find((r) => r.status !== 201);
    const envelope = refused?.body as ErrorEnvelope;
    expect(envelope.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(["rate_limited", "nothing_to_compact", "session_busy"]).toContain(envelope.error.code);

    const applied = results.find((r) => r.status === 201)?.body as { compaction: CompactionJson };
    for (const on of [a, b]) {
      const list = await compactions(on, sessionId);
      expect(list.map((c) => c.id)).toEqual([applied.compaction.id]);
      expect(list[0].status).toBe("applied");
    }
    expect(await leaseReleased(sessionId)).toBe(true);
    const [row] = await admin<{ summary_id: string | null }[]>`select summary_id from sessions where id = ${sessionId}`;
    if (applied.compaction.method !== "sliding") expect(row.summary_id).toBe(applied.compaction.id);
  });

  it("the 30 s compaction cooldown set on instance A is enforced by instance B", async () => {
    const sessionId = await sessionWithHistory("cooldown");
    const first = await api<{ compaction: CompactionJson } | ErrorEnvelope>(a, "POST", "/api/context/compact", {
      session_id: sessionId,
      force: true,
    });
    expect(first.status, explain(JSON.stringify(first.body))).toBe(201);

    const second = await api<ErrorEnvelope>(b, "POST", "/api/context/compact", { session_id: sessionId, force: true });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("rate_limited");
    const retryAfter = Number(second.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(second.body.error.details).toMatchObject({ retry_after_seconds: retryAfter });
    expect(await compactions(b, sessionId)).toHaveLength(1);

    // Another session is not held back by this one's cooldown.
    const other = await sessionWithHistory("cooldown, other session");
    expect((await api(b, "POST", "/api/context/compact", { session_id: other, force: true })).status).toBe(201);
  });

  /** A live subscriber of a session on one instance: what it heard so far, as `event` and `data`. */
  async function subscribe(on: AppInstance, sessionId: string, after: number) {
    const stop = new AbortController();
    const res = await fetch(`${on.base}/api/session/${sessionId}/events?after=${after}`, { signal: stop.signal });
    expect(res.status, explain("events")).toBe(200);
    const heard: { event: string; data: Record<string, unknown> }[] = [];
    const reading = (async () => {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut !== -1; cut = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event && data) heard.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    })();
    return {
      heard,
      async until(what: string, test: () => boolean) {
        for (let i = 0; i < 300 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
        expect(test(), explain(`${what}: heard ${JSON.stringify(heard).slice(0, 2000)}`)).toBe(true);
      },
      async close() {
        stop.abort();
        await reading;
      },
    };
  }

  it("a send on instance A is heard live on instance B: the messages, the reply as it streams, the title", async () => {
    const created = await api<{ session: SessionJson }>(a, "POST", "/api/session", {});
    expect(created.status, explain("create")).toBe(201);
    const sessionId = created.body.session.id;
    const page = await api<MessagesPageJson>(b, "GET", `/api/session/${sessionId}/messages`);
    const onB = await subscribe(b, sessionId, page.body.event_seq);
    const onA = await subscribe(a, sessionId, page.body.event_seq);
    await onB.until("ready", () => onB.heard.length > 0);
    expect(onB.heard[0].event).toBe("ready");
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    fake.enqueue({ kind: "slow", delayMs: 2_000, text: words });
    const sent = send(a, sessionId, "Tell me a story, slowly");
    await onB.until("a delta while the reply streams", () => onB.heard.some((e) => e.event === "delta"));
    const res = await sent;
    expect(res.status, explain(JSON.stringify(res.body))).toBe(201);
    const reply = (res.body as SendResultJson).assistant_message as MessageJson;
    for (const sub of [onA, onB]) {
      await sub.until("the saved reply and the title", () =>
        sub.heard.some((e) => e.event === "session") && sub.heard.some((e) => e.event === "messages" && e.data.from_seq === reply.seq),
      );
      // The reply as a viewer puts it together: each piece once, at its offset.
      let text = "";
      for (const e of sub.heard.filter((x) => x.event === "delta" && x.data.message_id === reply.id)) {
        expect(e.data.offset).toBe(text.length);
        text += e.data.text as string;
      }
      expect(text).toBe(words);
      const seqs = sub.heard.map((e) => e.data.seq).filter((n): n is number => typeof n === "number");
      expect(new Set(seqs).size).toBe(seqs.length);
      await sub.close();
    }
  });
});
