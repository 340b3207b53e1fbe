// Limits before reading: a declared oversized body is refused before any of it is read, a
// streamed one at the limit, and a gigabyte pushed at the server leaves its memory where it was.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import type { SessionJson } from "@/lib/contract";
import { api, rssMb, startEmbedded, tempDataDir, type AppInstance } from "./app";

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

interface Upload {
  /** The answer's status, or the error that ended the upload before one arrived. */
  status: number | string;
  /** Bytes written before the server answered or closed the connection. */
  sent: number;
}

/**
 * POSTs `totalBytes` of a JSON string as a chunked body (no Content-Length), writing as fast as
 * the socket takes it, until the server answers or hangs up.
 */
function streamBody(path: string, totalBytes: number, headers: Record<string, string> = {}): Promise<Upload> {
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const done = (status: number | string) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ status, sent });
    };
    const req = http.request(`${app.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    const chunk = Buffer.alloc(256 * 1024, "a");
    req.write('{"content":"');
    const pump = () => {
      while (!settled && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!settled) req.end('"}');
    };
    pump();
  });
}

/** Sends only the headers of a request that declares a huge body, and waits for the answer. */
function declareBody(path: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(bytes) },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}

describe("limits before reading", () => {
  it("refuses a declared 50 MB body on its headers alone", async () => {
    expect(await declareBody(`/api/session/${sessionId}/messages`, 50 * 1024 * 1024)).toBe(413);
    expect(await declareBody("/api/anthropic/v1/messages", 50 * 1024 * 1024)).toBe(413);
    expect(await declareBody("/api/session", 50 * 1024 * 1024)).toBe(413);
  });

  it("stops reading a streamed body at the limit, and a gigabyte leaves memory where it was", async () => {
    const pid = app.pid as number;
    // Warm the route up first: its first request loads code, which is not what is measured.
    await streamBody(`/api/session/${sessionId}/messages`, 8 * 1024 * 1024);
    const before = rssMb(pid);
    const send = await streamBody(`/api/session/${sessionId}/messages`, 1024 * 1024 * 1024);
    const dropIn = await streamBody("/api/anthropic/v1/messages", 1024 * 1024 * 1024);
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
