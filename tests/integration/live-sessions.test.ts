// Live sessions (GET /api/session/{id}/events) on the real PGlite: two subscribers of one session
// hear a new message, its reply's text as it streams (each piece once, at its offset), the title,
// a compaction and its checkpoint; a reconnect from its last event id hears what it missed and
// nothing twice; an unknown session is a 404 (another user's: tests/integration/cross-tenant.test.ts).
import { describe, expect, it } from "vitest";
import type { LiveEvent } from "@/lib/contract";
import * as compactRoute from "@/app/api/context/compact/route";
import * as eventsRoute from "@/app/api/session/[id]/events/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import { history, idle, newSession, params, postMessage, prose, readSse, req, useHarness } from "./harness";

const h = useHarness();

type Heard = LiveEvent & { id: number | null };

/** A subscriber: reads the stream as it comes, until closed. */
async function subscribe(sessionId: string, opts: { after?: number; lastEventId?: number } = {}) {
  const abort = new AbortController();
  const query = opts.after === undefined ? "" : `?after=${opts.after}`;
  const headers: Record<string, string> = opts.lastEventId === undefined ? {} : { "last-event-id": String(opts.lastEventId) };
  const base = req("GET", `/api/session/${sessionId}/events${query}`, undefined, headers);
  const res = await eventsRoute.GET(new Request(base, { signal: abort.signal }), params({ id: sessionId }));
  const heard: Heard[] = [];
  const done = (async () => {
    if (res.status !== 200 || !res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done: end } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (end) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) !== -1) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (!event || !data) continue;
        const id = /^id: (\d+)$/m.exec(frame)?.[1];
        heard.push({ event, data: JSON.parse(data), id: id ? Number(id) : null } as Heard);
      }
    }
  })();
  return {
    res,
    heard,
    async until(what: string, test: (e: Heard[]) => boolean, ms = 10_000): Promise<void> {
      const start = Date.now();
      while (!test(heard)) {
        if (Date.now() - start > ms) throw new Error(`not heard within ${ms} ms: ${what}; heard ${JSON.stringify(heard.map((e) => e.event))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      abort.abort();
      await done;
    },
  };
}

const of = <E extends LiveEvent["event"]>(heard: Heard[], name: E) =>
  heard.filter((e) => e.event === name) as (Extract<LiveEvent, { event: E }> & { id: number | null })[];

/** The reply's text as a viewer puts it together from deltas: each piece at its offset, exactly once. */
function assemble(heard: Heard[], messageId: string): string {
  let text = "";
  for (const d of of(heard, "delta")) {
    if (d.data.message_id !== messageId) continue;
    expect(d.data.offset).toBe(text.length); // in order, no gap, no repeat
    text += d.data.text;
  }
  return text;
}

describe("live sessions", () => {
  it("two subscribers hear a message, its streamed reply, the title, a compaction and its checkpoint", async () => {
    const s = await newSession();
    const page = await history(s.id);
    const a = await subscribe(s.id, { after: page.event_seq });
    const b = await subscribe(s.id); // no cursor: told to read the session again
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get("content-type")).toContain("text/event-stream");
    await a.until("ready", (e) => e.length > 0);
    await b.until("sync", (e) => e.length > 0);
    expect(a.heard[0]).toMatchObject({ event: "ready", data: { seq: page.event_seq } });
    expect(b.heard[0]).toMatchObject({ event: "sync", data: { seq: page.event_seq } });

    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    h.fake.enqueue({ kind: "slow", delayMs: 1_500, text: words });
    const sent = readSse(await postMessage(s.id, { content: "Tell me a long story" }));
    // While the reply streams, both hear its text (not waiting for the end).
    for (const sub of [a, b]) await sub.until("a delta", (e) => of(e, "delta").length > 0);
    const events = await sent;
    const reply = events.find((e) => e.event === "assistant_message")?.data as { id: string; text: string; seq: number };
    expect(reply.text).toBe(words);
    await idle(h, s.id);

    for (const sub of [a, b]) {
      await sub.until("the saved reply and the title", (e) => of(e, "session").length > 0 && of(e, "messages").some((m) => m.data.from_seq === reply.seq));
      expect(assemble(sub.heard, reply.id)).toBe(words);
      expect(of(sub.heard, "messages")[0].data.from_seq).toBe(1); // the user message and the reply's row
    }

    // Several turns, then a compaction: its divider and its pre_compaction checkpoint are heard.
    for (let i = 0; i < 3; i++) {
      h.fake.enqueue({ kind: "reply", text: `answer ${i}` });
      await readSse(await postMessage(s.id, { content: `question ${i}: ${prose(1_500, i)}` }));
      await idle(h, s.id);
    }
    h.fake.enqueue({ kind: "error", status: 500 }, { kind: "error", status: 500 });
    const compacted = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compacted.status, await compacted.clone().text()).toBe(201);
    for (const sub of [a, b]) await sub.until("compaction and checkpoint", (e) => of(e, "compactions").length > 0 && of(e, "checkpoints").length > 0);

    // Numbered events arrive in increasing order, none twice.
    for (const sub of [a, b]) {
      const ids = sub.heard.map((e) => e.id).filter((id): id is number => id !== null);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).toBe(ids.length);
      expect(sub.heard.filter((e) => e.event !== "delta").every((e) => e.id !== null)).toBe(true);
    }
    await a.close();
    await b.close();
  });

  it("a reconnect with Last-Event-ID hears that it missed something, and nothing it already heard", async () => {
    const s = await newSession();
    const first = await subscribe(s.id, { after: (await history(s.id)).event_seq });
    await first.until("ready", (e) => e.length > 0);
    const rename = (title: string) => sessionRoute.PATCH(req("PATCH", `/api/session/${s.id}`, { title }), params({ id: s.id }));
    expect((await rename("Before the cut")).status).toBe(200);
    await first.until("the rename", (e) => of(e, "session").length === 1);
    const lastSeen = first.heard.at(-1)?.id ?? -1;
    await first.close();

    // Away: a rename nobody hears.
    expect((await rename("While away")).status).toBe(200);
    const again = await subscribe(s.id, { after: 0, lastEventId: lastSeen });
    await again.until("sync", (e) => e.length > 0);
    expect(again.heard[0]).toMatchObject({ event: "sync", id: lastSeen + 1 });
    expect((await rename("After the reconnect")).status).toBe(200);
    await again.until("the next rename", (e) => of(e, "session").length === 1);
    expect(again.heard.map((e) => e.id)).toEqual([lastSeen + 1, lastSeen + 2]);
    await again.close();

    // Nothing missed: ready, and nothing replayed.
    const third = await subscribe(s.id, { lastEventId: lastSeen + 2 });
    await third.until("ready", (e) => e.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(third.heard).toEqual([{ event: "ready", data: { seq: lastSeen + 2 }, id: lastSeen + 2 }]);
    await third.close();
  });

  it("an unknown session is a 404 in the documented shape", async () => {
    const id = "00000000-0000-4000-8000-00000000abcd";
    const res = await eventsRoute.GET(req("GET", `/api/session/${id}/events`), params({ id }));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
