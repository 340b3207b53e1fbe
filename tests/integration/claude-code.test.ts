// The Claude Code CLI (`@anthropic-ai/claude-code`, headless `claude -p`) through the drop-in with
// its default settings: ANTHROPIC_BASE_URL at Threadkeeper and a Threadkeeper key. It asks for
// adaptive thinking, output_config.effort, its own context_management, eight betas, a recent
// Opus model and a mid-conversation system message, and runs its tools locally: Bash, and Read
// on a PDF, whose result comes back as a document block. The drop-in's route handlers answer
// over real HTTP on loopback; the fake Anthropic server is Threadkeeper's upstream.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as countRoute from "@/app/api/anthropic/v1/messages/count_tokens/route";
import * as sessionMessagesRoute from "@/app/api/session/[id]/messages/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import type { CreatedApiKeyJson, FileInfo, MessagesPageJson } from "@/lib/contract";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { importStatus, startImport, uploadTarget } from "@/lib/operations/import-job";
import { makePdf } from "../fake-anthropic/server";
import { params, req, useHarness } from "./harness";

const h = useHarness();

// The platform package holds the native binary itself; the wrapper's bin is only filled in by an
// install script, which this machine's npm does not run.
const CLAUDE = join(process.cwd(), "node_modules/@anthropic-ai/claude-code-linux-x64/claude");

let server: Server;
let base = "";
let key = "";
const sessions = new Set<string>();

/** Real HTTP in front of the route handlers, as `next start` would put them. */
function serve(): Promise<string> {
  server = createServer(async (incoming, res) => {
    const chunks: Buffer[] = [];
    for await (const c of incoming) chunks.push(c as Buffer);
    const url = `http://127.0.0.1:3000${incoming.url ?? "/"}`;
    const headers = new Headers();
    for (const [k, v] of Object.entries(incoming.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set("host", "127.0.0.1:3000");
    const request = new Request(url, { method: incoming.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const path = new URL(url).pathname;
    const answer = path.endsWith("/v1/messages/count_tokens")
      ? await countRoute.POST(request, undefined)
      : path.endsWith("/v1/messages")
        ? await messagesRoute.POST(request, undefined)
        : new Response(JSON.stringify({ type: "error", error: { type: "not_found_error", message: path } }), { status: 404 });
    const session = answer.headers.get("threadkeeper-session-id");
    if (session) sessions.add(session);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream).pipe(res);
    else res.end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/anthropic`)));
}

function claude(prompt: string, cwd: string): Promise<{ code: number | null; out: string; err: string; home: string }> {
  const home = mkdtempSync(join(tmpdir(), "tk-claude-home-"));
  const child = spawn(CLAUDE, ["-p", prompt, "--allowedTools", "Bash,Read", "--output-format", "text"], {
    cwd,
    env: {
      ...({} as NodeJS.ProcessEnv),
      PATH: process.env.PATH ?? "",
      HOME: home,
      ANTHROPIC_BASE_URL: base,
      ANTHROPIC_API_KEY: key,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    },
    stdio: ["ignore", "pipe", "pipe"] as const,
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, out, err, home })));
}

beforeAll(async () => {
  base = await serve();
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: "claude code", scopes: ["read", "write"] }), undefined);
  key = ((await res.json()) as CreatedApiKeyJson).secret;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Claude Code through the drop-in", () => {
  it("completes a conversation with thinking, a tool loop and a PDF it reads, all kept in the session", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tk-claude-cwd-"));
    writeFileSync(join(dir, "report.pdf"), makePdf(["The heliotrope pump runs at 42 bar."]));
    // Claude Code's model; Threadkeeper's own title call (Haiku) takes no scripted step.
    const forModel = "claude-opus-5-5";
    h.fake.enqueue(
      { forModel, kind: "tool_use", name: "Bash", input: { command: "echo tk-bash-ok", description: "Say ok" } },
      { forModel, kind: "tool_use", name: "Read", input: { file_path: join(dir, "report.pdf") } },
      { forModel, kind: "reply", text: "The pump runs at 42 bar; bash said tk-bash-ok." },
    );
    const run = await claude("Check the shell, then read report.pdf.", dir);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(run.out).toContain("42 bar");

    const chats = h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true);
    expect(chats.length).toBeGreaterThanOrEqual(3);
    const first = chats[0];
    expect(first.body?.thinking).toMatchObject({ type: "adaptive" });
    expect(first.body?.output_config).toMatchObject({ effort: expect.any(String) });
    expect(first.body?.context_management).toBeTruthy();
    expect(first.headers["anthropic-beta"]).toContain("claude-code-20250219");
    const roles = (first.body?.messages as { role: string }[]).map((m) => m.role);
    expect(roles).toContain("system");
    // Claude Code names no session, but each request continues the one the last began: its tool
    // results answer the calls it was just given. So the tool loop sends Claude's thinking back
    // as Threadkeeper stored it, verified by its own prefix digest (the fake checks the signatures).
    const lastChat = chats.at(-1);
    const last = lastChat?.body?.messages as { role: string; content: { type: string }[] | string }[];
    const resentThinking = last.filter((m) => m.role === "assistant" && Array.isArray(m.content) && m.content[0]?.type === "thinking");
    expect(resentThinking.length).toBeGreaterThanOrEqual(2);
    // The Read result carried the PDF as a document, which Threadkeeper read.
    expect(JSON.stringify(last)).toContain('"type":"document"');

    // One session for the whole conversation, without Threadkeeper's header.
    expect(sessions.size).toBe(1);
    const session = [...sessions][0] ?? "";
    const page = (await (await sessionMessagesRoute.GET(req("GET", `/api/session/${session}/messages?limit=200`), params({ id: session }))).json()) as MessagesPageJson;
    const types = page.messages.flatMap((m) => m.content.map((b) => b.type));
    expect(types).toEqual(expect.arrayContaining(["system_message", "thinking", "tool_use", "tool_result", "text"]));
    // The PDF the Read tool returned is the session's file, its text read (open_file and search find it).
    const files = ((await (await sessionFilesRoute.GET(req("GET", `/api/session/${session}/files`), params({ id: session }))).json()) as { files: FileInfo[] }).files;
    expect(files).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "pdf", extraction: "done" })]));
    expect(files.find((f) => f.kind === "pdf")?.about).toContain("heliotrope pump");

    // The transcript the CLI wrote (~/.claude/projects/<folder>/<session>.jsonl) imports as a
    // session of its own: the same turns, the tool loop paired, in the project of its folder.
    const folder = join(run.home, ".claude", "projects");
    const [transcript] = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(transcript).toBeDefined();
    const upload = await uploadTarget();
    copyFileSync(join(folder, transcript), upload);
    let job = await startImport(LOCAL_USER_ID, upload, { fileName: basename(transcript), bytes: statSync(upload).size });
    for (let i = 0; i < 200 && job.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = await importStatus(LOCAL_USER_ID, job.id);
    }
    expect(job).toMatchObject({ status: "done", format: "claude-code", imported: 1, failed: 0 });
    const [imported] = await withUser(LOCAL_USER_ID, (tx) =>
      tx.query<{ id: string; project: string | null }>(
        `select s.id, (select p.name from projects p where p.id = s.project_id) as project from sessions s where s.import_format = 'claude-code'`,
      ),
    );
    expect(imported.project).toBe(basename(dir));
    const importedPage = (await (await sessionMessagesRoute.GET(req("GET", `/api/session/${imported.id}/messages?limit=200`), params({ id: imported.id }))).json()) as MessagesPageJson;
    const said = importedPage.messages.map((m) => m.text).join("\n");
    expect(said).toContain("Check the shell, then read report.pdf.");
    expect(said).toContain("The pump runs at 42 bar; bash said tk-bash-ok.");
    const blocks = importedPage.messages.flatMap((m) => m.content);
    const uses = blocks.filter((b) => b.type === "tool_use").map((b) => (b as { id: string }).id);
    const results = blocks.filter((b) => b.type === "tool_result").map((b) => (b as { tool_use_id: string }).tool_use_id);
    expect(uses).toHaveLength(2);
    expect(results).toEqual(uses);
    // This CLI writes its thinking with the text left out (a signature only): nothing to read, so
    // no empty thinking block is imported.
    expect(blocks.filter((b) => b.type === "thinking" && !b.thinking)).toEqual([]);
  }, 120_000);
});
