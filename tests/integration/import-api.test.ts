// Importing through the API: the file received to disk, read in the background, followed to
// its end; every format by content; errors reported per conversation; the same file twice adds
// nothing; cancel; the limits before reading.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/import/route";
import * as importIdRoute from "@/app/api/import/[id]/route";
import * as cancelRoute from "@/app/api/import/[id]/cancel/route";
import type { ImportJson, SessionSummaryJson } from "@/lib/contract";
import * as exportRoute from "@/app/api/session/[id]/export/route";
import { history, idle, newSession, params, req, sendJson, useHarness } from "./harness";
import * as sessionsRoute from "@/app/api/session/route";
import { importsDir } from "@/lib/operations/import-job";

const h = useHarness();
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/import", name));
const ORIGIN = "http://127.0.0.1:3000";

function upload(name: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.set("file", new Blob([typeof body === "string" ? body : new Uint8Array(body)]), name);
  return importRoute.POST(new Request(`${ORIGIN}/api/import`, { method: "POST", body: form, headers: { origin: ORIGIN, ...headers } }), undefined as never);
}

async function finished(id: string): Promise<ImportJson> {
  for (let i = 0; i < 200; i++) {
    const res = await importIdRoute.GET(req("GET", `/api/import/${id}`), params({ id }));
    const { import: job } = (await res.json()) as { import: ImportJson };
    if (job.status !== "running") return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the import did not finish");
}

async function sessions(): Promise<SessionSummaryJson[]> {
  const res = await sessionsRoute.GET(req("GET", "/api/session?limit=100"), undefined as never);
  return ((await res.json()) as { sessions: SessionSummaryJson[] }).sessions;
}

describe("import through the API", () => {
  it("a ChatGPT file: 202 at once, then done with its counts; the same file again is all skipped", async () => {
    const res = await upload("conversations.json", fixture("chatgpt-conversations.json"));
    expect(res.status).toBe(202);
    const { import: started } = (await res.json()) as { import: ImportJson };
    expect(started).toMatchObject({ status: "running", file_name: "conversations.json" });
    const done = await finished(started.id);
    expect(done).toMatchObject({ status: "done", format: "chatgpt", imported: 1, skipped: 0, failed: 1 });
    expect(done.errors).toEqual([{ source_id: "broken-1", title: "Broken", reason: "the conversation has no message tree (mapping)" }]);
    expect(done.bytes_read).toBe(done.bytes);
    const imported = (await sessions()).find((s) => s.title === "Sourdough starter");
    expect(imported?.created_at).toBe("2026-01-01T00:00:00.123Z");
    expect((await history(imported!.id)).messages).toHaveLength(6);

    const again = (await (await upload("conversations.json", fixture("chatgpt-conversations.json"))).json()) as { import: ImportJson };
    expect(await finished(again.import.id)).toMatchObject({ status: "done", imported: 0, skipped: 1, failed: 1 });
    expect((await sessions()).filter((s) => s.title === "Sourdough starter")).toHaveLength(1);

    const list = (await (await importRoute.GET(req("GET", "/api/import"), undefined as never)).json()) as { imports: ImportJson[] };
    expect(list.imports.map((i) => i.id).slice(0, 2)).toEqual([again.import.id, started.id]);
  });

  it("a browser's multipart body, whose boundary has capitals", async () => {
    const boundary = "----WebKitFormBoundaryQzT9xKbLmNoP";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="conversations.json"\r\nContent-Type: application/json\r\n\r\n`),
      Buffer.from(JSON.stringify((JSON.parse(fixture("claude-conversations.json").toString()) as { uuid: string }[]).map((c) => ({ ...c, uuid: `${c.uuid}-browser` })))),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await importRoute.POST(
      new Request(`${ORIGIN}/api/import`, { method: "POST", body: new Uint8Array(body), headers: { origin: ORIGIN, "content-type": `multipart/form-data; boundary=${boundary}` } }),
      undefined as never,
    );
    expect(res.status).toBe(202);
    const { import: job } = (await res.json()) as { import: ImportJson };
    expect(await finished(job.id)).toMatchObject({ status: "done", format: "claude" });
  });

  it("Claude.ai and Claude Code files by content, whatever their names", async () => {
    const claude = (await (await upload("export.bin", fixture("claude-conversations.json"))).json()) as { import: ImportJson };
    expect(await finished(claude.import.id)).toMatchObject({ status: "done", format: "claude", imported: 1, failed: 1 });
    const code = (await (await upload("notes.txt", fixture("claude-code-session.jsonl"))).json()) as { import: ImportJson };
    expect(await finished(code.import.id)).toMatchObject({ status: "done", format: "claude-code", imported: 1 });
    expect((await sessions()).some((s) => s.title === "Parser numbers")).toBe(true);
  });

  it("text PostgreSQL cannot store is made storable, absurd times are unknown, and a value the database refuses fails its conversation alone", async () => {
    const conv = (id: string, said: string, at: number) => ({
      id,
      title: id,
      create_time: at,
      current_node: "m1",
      mapping: {
        root: { id: "root", message: null, parent: null, children: ["m0"] },
        m0: { id: "m0", parent: "root", children: ["m1"], message: { id: "m0", author: { role: "user" }, create_time: at, content: { content_type: "text", parts: [said] } } },
        m1: { id: "m1", parent: "m0", children: [], message: { id: "m1", author: { role: "assistant" }, create_time: 9e15, content: { content_type: "text", parts: ["half \uD800 a pair"] } } },
      },
    });
    const long = "x".repeat(20_000);
    const file = JSON.stringify([conv("nul\u0000id", "a tool's output: \u0000\u0000 done", 1_700_000_000), conv(long, "an id no index holds", 1_700_000_000), conv("far", "from the year 33658", 1e15)]);
    const job = (await (await upload("conversations.json", file)).json()) as { import: ImportJson };
    const first = await finished(job.import.id);
    expect(first).toMatchObject({ status: "done", format: "chatgpt", imported: 2, failed: 1 });
    expect(first.errors[0]).toMatchObject({ source_id: `${long.slice(0, 40)}…`, reason: "its id is longer than 300 characters, which no export's is" });
    const nul = (await sessions()).find((x) => x.title === "nulid");
    expect((await history(nul!.id)).messages.map((m) => m.text)).toEqual(["a tool's output:  done", "half \uFFFD a pair"]);
    const far = (await sessions()).find((x) => x.title === "far");
    expect(new Date(far!.created_at).getUTCFullYear()).toBeLessThan(3000);

    // Threadkeeper's own JSON, with a token count no column holds: reported with why, the rest of the file goes on.
    const s = await newSession({ title: "Counted" });
    await sendJson(s.id, "[[reply:Counted.]] Count this");
    await idle(h, s.id);
    const exported = await exportRoute.GET(req("GET", `/api/session/${s.id}/export?format=json`), params({ id: s.id }));
    const doc = (await exported.json()) as { session: { id: string }; messages: { token_count: number }[] };
    doc.session.id = "00000000-0000-4000-8000-0000000c0de1";
    doc.messages[0].token_count = 1e12;
    const bad = (await (await upload("session.json", JSON.stringify(doc))).json()) as { import: ImportJson };
    const done = await finished(bad.import.id);
    expect(done).toMatchObject({ status: "done", format: "threadkeeper", imported: 0, failed: 1 });
    expect(done.errors[0].reason).toMatch(/could not be stored: .*out of range/);
  });

  it("a file that is no export fails with the formats understood; an empty or missing file is a 400; too large a 413 before reading", async () => {
    const bad = (await (await upload("notes.txt", "hello")).json()) as { import: ImportJson };
    const failed = await finished(bad.import.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/ChatGPT exports .* Claude.ai exports .* Claude Code transcripts/);

    const form = new FormData();
    form.set("other", "x");
    const missing = await importRoute.POST(new Request(`${ORIGIN}/api/import`, { method: "POST", body: form, headers: { origin: ORIGIN } }), undefined as never);
    expect(missing.status).toBe(400);

    process.env.THREADKEEPER_IMPORT_MAX_BYTES = "1000";
    try {
      const big = await upload("conversations.json", fixture("chatgpt-conversations.json"), { "content-length": "5000000" });
      expect(big.status).toBe(413);
      const streamed = await upload("conversations.json", Buffer.alloc(5000, 0x20));
      expect(streamed.status).toBe(413);
    } finally {
      delete process.env.THREADKEEPER_IMPORT_MAX_BYTES;
    }
    const leftovers = fs.readdirSync(importsDir()).filter((f) => f.startsWith("upload-"));
    expect(leftovers).toEqual([]);
  });

  it("cancel stops a running import; an unknown one is a 404", async () => {
    const many = JSON.parse(fixture("chatgpt-conversations.json").toString()) as { id: string; conversation_id: string }[];
    const big = Array.from({ length: 60 }, (_, i) => ({ ...many[0], id: `c${i}`, conversation_id: `c${i}` }));
    const { import: job } = (await (await upload("conversations.json", JSON.stringify(big))).json()) as { import: ImportJson };
    const res = await cancelRoute.POST(req("POST", `/api/import/${job.id}/cancel`, {}), params({ id: job.id }));
    expect(res.status).toBe(200);
    const ended = await finished(job.id);
    expect(ended.status).toBe("cancelled");
    expect(ended.imported).toBeLessThan(60);
    const unknown = "7d9f3c2e-1b4a-4c5d-8e6f-0a1b2c3d4e5f";
    expect((await importIdRoute.GET(req("GET", `/api/import/${unknown}`), params({ id: unknown }))).status).toBe(404);
  });
});
