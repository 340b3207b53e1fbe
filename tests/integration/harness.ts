// Shared set-up for route-level integration tests: an in-memory PGlite (the real database)
// and the fake Anthropic HTTP server (the real SDK talks to it). Nothing of ours is mocked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { LocalFileStore, setFileStore } from "@/lib/storage";
import type { SendEvent } from "@/lib/contract";
import { openEmbedded, setDb, type Database } from "@/lib/db";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import * as sessionRoute from "@/app/api/session/route";
import * as messagesRoute from "@/app/api/session/[id]/messages/route";
import * as statusRoute from "@/app/api/context/status/route";
import type { ContextStatusJson, MessagesPageJson, SendResultJson, SessionJson } from "@/lib/contract";

export interface Harness {
  db: Database;
  fake: FakeAnthropic;
  /** Where this file's test run keeps attached files (the embedded file store). */
  filesDir: string;
}

export function useHarness(opts: { online?: boolean; model?: string } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    h.fake = await startFakeAnthropic();
    h.db = await openEmbedded("memory://");
    setDb(h.db);
    h.filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-files-"));
    setFileStore(new LocalFileStore(h.filesDir));
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
    setFileStore(undefined);
    await h.db.close();
    await h.fake.close();
    fs.rmSync(h.filesDir, { recursive: true, force: true });
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
    // A frame of comment lines only (": …") dispatches no event, as in a browser's EventSource.
    .filter((f) => f.split("\n").some((line) => line !== "" && !line.startsWith(":")))
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "";
      const raw = /^data: (.*)$/m.exec(frame)?.[1] ?? "null";
      // OpenAI's streams end with `data: [DONE]`, which is not JSON: kept as the text it is.
      const data = (raw === "[DONE]" ? raw : JSON.parse(raw)) as unknown;
      return { event, data } as SendEvent;
    });
}

type EventData<E extends SendEvent["event"]> = Extract<SendEvent, { event: E }>["data"];

export function ofType<E extends SendEvent["event"]>(events: SendEvent[], name: E): EventData<E>[] {
  return events.filter((e) => e.event === name).map((e) => e.data as EventData<E>);
}

// Thin clients for the routes most tests touch; each asserts nothing but the transport.

export async function newSession(body: object = {}): Promise<SessionJson> {
  const res = await sessionRoute.POST(req("POST", "/api/session", body), undefined);
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session: SessionJson }).session;
}

export function postMessage(id: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return messagesRoute.POST(req("POST", `/api/session/${id}/messages`, body, headers), params({ id }));
}

export async function sendJson(
  id: string,
  content: string,
  headers: Record<string, string> = {},
): Promise<{ res: Response; body: SendResultJson & { error?: { code: string; message: string; details: SendResultJson } } }> {
  const res = await postMessage(id, { content }, { accept: "application/json", ...headers });
  return { res, body: (await res.json()) as SendResultJson & { error?: { code: string; message: string; details: SendResultJson } } };
}

export async function history(id: string, query = "?limit=500"): Promise<MessagesPageJson> {
  const res = await messagesRoute.GET(req("GET", `/api/session/${id}/messages${query}`), params({ id }));
  if (res.status !== 200) throw new Error(`history: ${res.status}`);
  return (await res.json()) as MessagesPageJson;
}

export async function contextStatus(id: string): Promise<ContextStatusJson> {
  const res = await statusRoute.GET(req("GET", `/api/context/status?session_id=${id}`), undefined);
  if (res.status !== 200) throw new Error(`status: ${res.status}`);
  return (await res.json()) as ContextStatusJson;
}

const WORDS =
  "alpha beta gamma delta schema migration retry backoff cursor index policy tenant render stream buffer token window summary checkpoint".split(
    " ",
  );

/** Deterministic filler prose of about `words` tokens. */
export function prose(words: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(i * 7 + seed * 13 + (i % 5)) % WORDS.length]);
  return out.join(" ");
}

/**
 * Waits until the session's lease is free: a JSON send answers before its follow-up
 * (checkpoint, automatic compaction) ends, and tests that change settings next must not race it.
 */
export async function idle(h: Harness, sessionId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await h.db.transaction((tx) =>
      tx.query<{ busy: boolean }>("select turn_lock_id is not null as busy from sessions where id = $1", [sessionId]),
    );
    if (!row?.busy) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`session ${sessionId} stayed busy`);
}
