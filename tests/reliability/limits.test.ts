// Limits before reading: a declared oversized body is refused before any of it is read, a
// streamed one at the limit, and a gigabyte pushed at the server leaves its memory where it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import type { SessionJson } from "@/lib/contract";
import { api, declareBody, rssMb, startEmbedded, streamBody, tempDataDir, type AppInstance } from "./app";

let fake: FakeAnthropic;
let app: AppInstance;
let sessionId: string;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  app = await startEmbedded("limits", await tempDataDir(), fake.url);
  const created = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title: "limits" });
  sessionId = created.body.session.id;
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe("limits before reading", () => {
  it("refuses a declared 50 MB body on its headers alone", async () => {
    expect(await declareBody(app, `/api/session/${sessionId}/messages`, 50 * 1024 * 1024)).toBe(413);
    expect(await declareBody(app, "/api/anthropic/v1/messages", 50 * 1024 * 1024)).toBe(413);
    expect(await declareBody(app, "/api/session", 50 * 1024 * 1024)).toBe(413);
  });

  it("stops reading a streamed body at the limit, and a gigabyte leaves memory where it was", async () => {
    const pid = app.pid as number;
    // Warm the route up first: its first request loads code, which is not what is measured.
    await streamBody(app, `/api/session/${sessionId}/messages`, 8 * 1024 * 1024);
    const before = rssMb(pid);
    const send = await streamBody(app, `/api/session/${sessionId}/messages`, 1024 * 1024 * 1024);
    const dropIn = await streamBody(app, "/api/anthropic/v1/messages", 1024 * 1024 * 1024);
    const after = rssMb(pid);
    // The server answered 413 (or hung up after its answer) long before the gigabyte was written.
    for (const upload of [send, dropIn]) {
      expect([413, "ECONNRESET", "EPIPE"], JSON.stringify(upload)).toContain(upload.status);
      expect(upload.sent).toBeLessThan(256 * 1024 * 1024);
    }
    expect(after - before, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`).toBeLessThan(50);
    // And it still serves.
    const health = await fetch(`${app.base}/api/health`);
    expect(health.status).toBe(200);
  });
});
