// Shared set-up for route-level integration tests: an in-memory PGlite (the real database)
// and the fake Anthropic HTTP server (the real SDK talks to it). Nothing of ours is mocked.
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { SendEvent } from "@/lib/api/types";
import { openEmbedded, setDb, type Database } from "@/lib/db";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";

export interface Harness {
  db: Database;
  fake: FakeAnthropic;
}

export function useHarness(opts: { online?: boolean; model?: string } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    h.fake = await startFakeAnthropic();
    h.db = await openEmbedded("memory://");
    setDb(h.db);
  });
  beforeEach(() => {
    h.fake.reset();
    process.env.ANTHROPIC_BASE_URL = h.fake.url;
    process.env.THREADKEEPER_MODEL = opts.model ?? "claude-haiku-4-5";
    process.env.THREADKEEPER_OFFLINE_DELAY_MS = "0";
    process.env.THREADKEEPER_MAX_RETRIES = "2";
    if (opts.online === false) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = "test-key";
  });
  afterAll(async () => {
    setDb(undefined);
    await h.db.close();
    await h.fake.close();
  });
  return h;
}

export function req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3000${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

export async function readSse(res: Response): Promise<SendEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((f) => f.trim() !== "")
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "";
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null") as unknown;
      return { event, data } as SendEvent;
    });
}

type EventData<E extends SendEvent["event"]> = Extract<SendEvent, { event: E }>["data"];

export function ofType<E extends SendEvent["event"]>(events: SendEvent[], name: E): EventData<E>[] {
  return events.filter((e) => e.event === name).map((e) => e.data as EventData<E>);
}
