// Files in the conversation through the routes: uploads checked before anything is kept, the
// bytes served back safely, attachments on a send reaching Claude as the API's own blocks, the
// same bytes stored once, a quota, deletion, and open_file bringing back a page once the file's
// turn has been condensed. The real SDK talks to the fake Anthropic server; files live in a
// real folder (the embedded store).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as compactRoute from "@/app/api/context/compact/route";
import * as filesRoute from "@/app/api/files/route";
import * as fileRoute from "@/app/api/files/[id]/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import type { FileInfo, StorageUsageJson } from "@/lib/contract";
import { makePdf } from "../fake-anthropic/server";
import { pngHeader } from "../fake-anthropic/images";
import { contextStatus, history, idle, newSession, params, postMessage, req, useHarness } from "./harness";

const h = useHarness();

function upload(sessionId: string, name: string, bytes: Uint8Array, type = "", headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(bytes)], name, { type }));
  return sessionFilesRoute.POST(new Request(`http://127.0.0.1:3000/api/session/${sessionId}/files`, { method: "POST", body: form, headers }), params({ id: sessionId }));
}

async function uploaded(sessionId: string, name: string, bytes: Uint8Array, type = ""): Promise<FileInfo> {
  const res = await upload(sessionId, name, bytes, type);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { file: FileInfo }).file;
}

const png = (w: number, h: number) => pngHeader(w, h);
const pdf = (pages: number) => makePdf(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of the quarterly report. Marker word ${i === 2 ? "zanzibar" : "ordinary"} here.`));

async function sendWith(sessionId: string, body: object) {
  const res = await postMessage(sessionId, body, { accept: "application/json" });
  const json = (await res.json()) as { error?: { code: string; message: string } };
  return { res, json };
}

/** What Threadkeeper sent Claude for the last reply. */
const lastSent = () => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true).at(-1);

describe("uploads", () => {
  it("keeps an image, a text file and a PDF with their figures, and serves the bytes back as they came", async () => {
    const s = await newSession();
    const image = await uploaded(s.id, "screenshot.png", png(1920, 1080), "image/png");
    expect(image).toMatchObject({ kind: "image", media_type: "image/png", width: 1920, height: 1080, extraction: "none" });
    expect(image.tokens).toBeGreaterThan(1000);
    const log = await uploaded(s.id, "server.log", new TextEncoder().encode("INFO boot\nERROR disk full on /var\n".repeat(50)));
    expect(log).toMatchObject({ kind: "text", media_type: "text/plain", extraction: "done", pages: 1 });
    expect(log.about).toBe("INFO boot");
    const report = await uploaded(s.id, "report.pdf", pdf(4), "application/pdf");
    expect(report).toMatchObject({ kind: "pdf", pages: 4, extraction: "done" });
    expect(report.tokens).toBeGreaterThan(4 * 1568);

    const got = await fileRoute.GET(req("GET", `/api/files/${image.id}`), params({ id: image.id }));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("content-disposition")).toContain('filename="screenshot.png"');
    expect(Buffer.from(await got.arrayBuffer()).equals(png(1920, 1080))).toBe(true);

    const listed = await sessionFilesRoute.GET(req("GET", `/api/session/${s.id}/files`), params({ id: s.id }));
    expect(((await listed.json()) as { files: FileInfo[] }).files.map((f) => f.name).sort()).toEqual(["report.pdf", "screenshot.png", "server.log"]);
  });

  it("refuses what Claude cannot read, what is too large and what is broken, and keeps nothing of it", async () => {
    const s = await newSession();
    const before = fs.readdirSync(h.filesDir, { recursive: true }).length;
    const exe = await upload(s.id, "setup.exe", Buffer.from("MZ\x90\x00\x03\x00binary"), "application/octet-stream");
    expect(exe.status).toBe(415);
    expect(((await exe.json()) as { error: { message: string } }).error.message).toMatch(/PNG.*PDF.*text/s);
    const big = Buffer.concat([png(100, 100), Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await upload(s.id, "huge.png", big, "image/png");
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "file_too_large", message: expect.stringMatching(/5 MB/) });
    const broken = await upload(s.id, "broken.pdf", Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage"), "application/pdf");
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe("invalid_file");
    const cut = await upload(s.id, "cut.png", png(10, 10).subarray(0, 20), "image/png");
    expect(cut.status).toBe(400);
    expect(fs.readdirSync(h.filesDir, { recursive: true }).length).toBe(before);
    const none = await sessionFilesRoute.GET(req("GET", `/api/session/${s.id}/files`), params({ id: s.id }));
    expect(((await none.json()) as { files: FileInfo[] }).files).toEqual([]);
  });

  it("refuses a body over the upload limit before reading it, and a form without the file field", async () => {
    const s = await newSession();
    // A streamed body past the limit: counted as it arrives and abandoned at the limit.
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const res = await sessionFilesRoute.POST(
      new Request(`http://127.0.0.1:3000/api/session/${s.id}/files`, {
        method: "POST",
        body: huge,
        headers: { "content-type": "multipart/form-data; boundary=x" },
        duplex: "half",
      } as RequestInit),
      params({ id: s.id }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    const form = new FormData();
    form.set("other", "no file here");
    const noFile = await sessionFilesRoute.POST(new Request(`http://127.0.0.1:3000/api/session/${s.id}/files`, { method: "POST", body: form }), params({ id: s.id }));
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { error: { message: string } }).error.message).toContain("'file'");
  });

  it("stores a hostile name safely and never serves HTML or SVG so that it runs", async () => {
    const s = await newSession();
    const name = `../../etc/\u0000\u0007evil\u202Egnp.html${"x".repeat(500)}`;
    const f = await uploaded(s.id, name, new TextEncoder().encode("<script>alert(1)</script>"), "text/html");
    expect(f.name).not.toMatch(/[/\\\u0000\u0007\u202E]/);
    expect([...f.name].length).toBeLessThanOrEqual(255);
    const got = await fileRoute.GET(req("GET", `/api/files/${f.id}`), params({ id: f.id }));
    expect(got.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toContain("default-src 'none'");
    const svg = await uploaded(s.id, "logo.svg", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "image/svg+xml");
    expect(svg.kind).toBe("text");
  });

  it("a browser page on another site cannot upload with the user's cookie", async () => {
    const s = await newSession();
    const res = await upload(s.id, "a.txt", new TextEncoder().encode("hello"), "text/plain", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
  });

  it("stores the same bytes once, and holds uploads to the quota", async () => {
    const s = await newSession();
    const bytes = new TextEncoder().encode("quota line\n".repeat(60_000));
    await uploaded(s.id, "a.txt", bytes);
    const again = await uploaded(s.id, "copy-of-a.txt", bytes);
    expect(again.sha256).toBe(createSha(bytes));
    const overview = (await (await filesRoute.GET(req("GET", "/api/files"), undefined)).json()) as { usage: StorageUsageJson };
    const used = overview.usage.used_bytes;
    process.env.THREADKEEPER_STORAGE_QUOTA_MB = String(Math.ceil(used / 1024 / 1024));
    try {
      const more = await upload(s.id, "b.txt", new TextEncoder().encode("another\n".repeat(200_000)));
      expect(more.status).toBe(413);
      expect(((await more.json()) as { error: { code: string } }).error.code).toBe("quota_exceeded");
      // The same bytes again take no room.
      await uploaded(s.id, "third-copy.txt", bytes);
    } finally {
      delete process.env.THREADKEEPER_STORAGE_QUOTA_MB;
    }
  });
});

function createSha(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("files in a conversation", () => {
  it("sends attachments to Claude as the API's own blocks, keeps them by id, and counts them on the bar", async () => {
    const s = await newSession();
    const image = await uploaded(s.id, "chart.png", png(800, 600), "image/png");
    const doc = await uploaded(s.id, "report.pdf", pdf(3), "application/pdf");
    const notes = await uploaded(s.id, "notes.md", new TextEncoder().encode("# Notes\nShip on Friday."));
    const { res } = await sendWith(s.id, { content: "What do these say?", attachments: [image.id, doc.id, notes.id] });
    expect(res.status).toBe(201);
    const sent = lastSent()?.body as { messages: { content: { type: string; source?: { type: string; data?: string; media_type?: string }; title?: string }[] }[] };
    const blocks = sent.messages.at(-1)!.content;
    expect(blocks.map((b) => b.type)).toEqual(["image", "document", "document", "text"]);
    expect(blocks[0].source).toMatchObject({ type: "base64", media_type: "image/png", data: png(800, 600).toString("base64") });
    expect(blocks[1].source).toMatchObject({ type: "base64", media_type: "application/pdf" });
    expect(blocks[2].source).toMatchObject({ type: "text", data: "# Notes\nShip on Friday." });
    expect(JSON.stringify(sent)).not.toContain("threadkeeper");

    const stored = (await history(s.id)).messages[0];
    expect(stored.content.map((b) => (b as { source?: { type: string } }).source?.type ?? b.type)).toEqual(["threadkeeper_file", "threadkeeper_file", "threadkeeper_file", "text"]);
    const status = await contextStatus(s.id);
    expect(status.breakdown.files).toBeGreaterThan(image.tokens);
    expect(status.breakdown.files).toBeLessThanOrEqual(status.breakdown.messages);
  });

  it("refuses an attachment of another session, and a deleted file is named as deleted to Claude", async () => {
    const a = await newSession();
    const b = await newSession();
    const f = await uploaded(a.id, "a.txt", new TextEncoder().encode("only in a"));
    const { res, json } = await sendWith(b.id, { content: "hi", attachments: [f.id] });
    expect(res.status).toBe(400);
    expect(json.error?.message).toMatch(/attachments\.0/);

    await sendWith(a.id, { content: "read it", attachments: [f.id] });
    const del = await fileRoute.DELETE(req("DELETE", `/api/files/${f.id}`), params({ id: f.id }));
    expect(del.status).toBe(204);
    expect((await fileRoute.GET(req("GET", `/api/files/${f.id}`), params({ id: f.id }))).status).toBe(404);
    await idle(h, a.id);
    await sendWith(a.id, { content: "and now?" });
    expect(JSON.stringify(lastSent()?.body)).toContain('[The file \\"a.txt\\" was attached here and has since been deleted.]');
  });

  it("after the file's turn is condensed, Claude sees a one-line reference and reopens page 3 with open_file", async () => {
    const s = await newSession();
    await sendWith(s.id, { content: "Hello, let us look at a report next." });
    const doc = await uploaded(s.id, "quarterly.pdf", pdf(5), "application/pdf");
    await sendWith(s.id, { content: "Here is the report.", attachments: [doc.id] });
    for (let i = 0; i < 3; i++) {
      await idle(h, s.id);
      await sendWith(s.id, { content: `Another question number ${i} about something else entirely.` });
    }
    await idle(h, s.id);
    const compacted = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compacted.status).toBe(201);
    await idle(h, s.id);

    h.fake.enqueue({ kind: "tool_use", name: "open_file", input: { file_id: doc.id, pages: "3" } });
    h.fake.enqueue({ kind: "reply", text: "Page 3 mentions zanzibar." });
    await sendWith(s.id, { content: "What was on page 3 of the report?" });
    const requests = h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true);
    const asked = requests.at(-2)?.body as { system: { text: string }[]; tools: { name: string }[]; messages: { content: unknown }[] };
    const system = asked.system.map((b) => b.text).join("");
    expect(system).toContain(`"quarterly.pdf" (PDF, 5 pages, file_id ${doc.id}`);
    expect(asked.tools.map((t) => t.name)).toContain("open_file");
    // The condensed turn's PDF is no longer sent.
    expect(JSON.stringify(asked.messages)).not.toContain('"application/pdf"');
    const answered = JSON.stringify(requests.at(-1)?.body);
    expect(answered).toContain("page 3 of 5");
    expect(answered).toContain("zanzibar");
  });

  it("deleting a session deletes its files and their bytes", async () => {
    const s = await newSession();
    const f = await uploaded(s.id, "kept.txt", new TextEncoder().encode("kept by nobody"));
    const unsent = await uploaded(s.id, "unsent.txt", new TextEncoder().encode("never sent"));
    await sendWith(s.id, { content: "see", attachments: [f.id] });
    await idle(h, s.id);
    const dir = path.join(h.filesDir);
    const countFiles = () => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const before = countFiles();
    const del = await sessionRoute.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }));
    expect(del.status).toBe(204);
    for (const id of [f.id, unsent.id]) expect((await fileRoute.GET(req("GET", `/api/files/${id}`), params({ id }))).status).toBe(404);
    expect(countFiles()).toBe(before - 2);
  });
});
