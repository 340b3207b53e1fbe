// Reading uploaded exports: every layout a real export comes in, told by content, and hostile
// files refused with a clear message and bounded memory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { ImportFileError, READ_LIMITS, readExport, type ReadItem } from "@/lib/operations/import-read";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-import-read-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/import", name));

function write(name: string, body: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

async function zip(name: string, entries: Record<string, Buffer | string>, compress = true): Promise<string> {
  const z = new yazl.ZipFile();
  for (const [entry, body] of Object.entries(entries)) z.addBuffer(Buffer.from(body), entry, { compress });
  z.end();
  const out = path.join(dir, name);
  await new Promise<void>((resolve, reject) => z.outputStream.pipe(fs.createWriteStream(out)).on("close", resolve).on("error", reject));
  return out;
}

async function readAll(file: string): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readExport(file, fs.statSync(file).size)) out.push(item);
  return out;
}
const formats = (items: ReadItem[]) => items.map((i) => ("conversation" in i ? i.conversation.format : "error" in i ? `error: ${i.error.reason}` : `account: ${i.account.kind}`));

describe("reading an export", () => {
  it("a JSON array of ChatGPT conversations: each one, the broken one reported, progress to the end", async () => {
    const file = write("conversations.json", fixture("chatgpt-conversations.json"));
    const items = await readAll(file);
    expect(formats(items)).toEqual(["chatgpt", "error: the conversation has no message tree (mapping)"]);
    expect(items.at(-1)!.bytesRead).toBe(fs.statSync(file).size);
  });

  it("ChatGPT's 2026 ZIP with shards, Claude.ai's ZIP, a Claude Code projects folder, a ZIP of ZIPs: told by content", async () => {
    const [chatgpt] = JSON.parse(fixture("chatgpt-conversations.json").toString()) as object[];
    const shards = await zip("chatgpt.zip", {
      "conversations-000.json": JSON.stringify([chatgpt]),
      "conversations-001.json": JSON.stringify([{ ...chatgpt, id: "second", conversation_id: "second" }]),
      "export_manifest.json": "{}",
      "user.json": JSON.stringify({ id: "u" }),
      "chat.html": "<html></html>",
    });
    expect(formats(await readAll(shards))).toEqual(["chatgpt", "chatgpt"]);

    const claude = await zip("claude.zip", { "conversations.json": fixture("claude-conversations.json"), "users.json": "[]", "projects.json": "[]" });
    expect(formats(await readAll(claude))).toEqual(["claude", "error: the conversation has no message of yours"]);

    const code = await zip("projects.zip", {
      "projects/-home-me-app/5e55c0de-0000-4000-8000-0000000000cc.jsonl": fixture("claude-code-session.jsonl"),
      "projects/-home-me-app/empty.jsonl": "",
    });
    const sessions = await readAll(code);
    expect(formats(sessions)).toEqual(["claude-code"]);

    const outer = await zip("manifest.zip", { "data-1.zip": fs.readFileSync(claude), "data-2.zip": fs.readFileSync(shards) }, false);
    expect(formats(await readAll(outer))).toEqual(["claude", "error: the conversation has no message of yours", "chatgpt", "chatgpt"]);
  });

  it("a Claude Code transcript and a single conversation object, not in an array", async () => {
    expect(formats(await readAll(write("s.jsonl", fixture("claude-code-session.jsonl"))))).toEqual(["claude-code"]);
    const [chatgpt] = JSON.parse(fixture("chatgpt-conversations.json").toString()) as object[];
    expect(formats(await readAll(write("one.json", JSON.stringify(chatgpt))))).toEqual(["chatgpt"]);
  });

  it("refuses what is no export, saying which formats are understood", async () => {
    for (const [name, body] of [
      ["notes.txt", "just some notes"],
      ["other.json", JSON.stringify({ hello: "world" })],
      ["array.json", JSON.stringify([{ hello: "world" }])],
      ["broken.json", "[{\"mapping\": "],
      ["empty.zip", null],
    ] as const) {
      const file = body === null ? await zip(name, { "readme.txt": "nothing" }) : write(name, body);
      await expect(readAll(file), name).rejects.toThrow(ImportFileError);
      await expect(readAll(file), name).rejects.toThrow(/ChatGPT exports|not valid JSON/);
    }
  });

  it("JSON nested 100,000 deep is refused without exhausting the stack", async () => {
    const deep = `[{"mapping":${"[".repeat(100_000)}${"]".repeat(100_000)}}]`;
    await expect(readAll(write("deep.json", deep))).rejects.toThrow(/nested more than 256 levels/);
  });

  it("a ZIP that inflates beyond the limit is refused as a bomb would be", async () => {
    const bomb = await zip("bomb.zip", { "conversations.json": Buffer.alloc(8 * 1024 * 1024, 0x20) });
    expect(fs.statSync(bomb).size).toBeLessThan(64 * 1024);
    const limit = READ_LIMITS.maxInflatedBytes;
    READ_LIMITS.maxInflatedBytes = 4 * 1024 * 1024;
    try {
      await expect(readAll(bomb)).rejects.toThrow(/inflates to more than/);
    } finally {
      READ_LIMITS.maxInflatedBytes = limit;
    }
  });

  it("a ZIP whose headers understate what an entry inflates to is refused once the lie shows, reading no further", async () => {
    const file = await zip("liar.zip", { "conversations.json": `[${'{"title":"padding"},'.repeat(400_000)}{}]` });
    // The declared uncompressed size, in the local header (offset 22) and the central directory (offset 24), set to 1 KB.
    const bytes = fs.readFileSync(file);
    for (const [signature, offset] of [[0x04034b50, 22], [0x02014b50, 24]] as const) {
      for (let i = bytes.indexOf(Buffer.from(new Uint32Array([signature]).buffer)); i >= 0; i = bytes.indexOf(Buffer.from(new Uint32Array([signature]).buffer), i + 4)) {
        bytes.writeUInt32LE(1024, i + offset);
      }
    }
    fs.writeFileSync(file, bytes);
    const error = await readAll(file).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/conversations\.json.* says it holds 1,024 bytes but inflates to more/);
  });

  it("Threadkeeper's account ZIP: its files and memories passed on in the ZIP's order; another app's memories.json and files/ are not", async () => {
    const claudeCode = fixture("claude-code-session.jsonl");
    const ours = await zip("account.zip", {
      "files.json": JSON.stringify({ format: "threadkeeper-export", files: [] }),
      "file-pages/0123abcd.json": JSON.stringify({ pages: ["text"] }),
      "files/0123abcd plan.txt": "beds: 4",
      "sessions/x.jsonl": claudeCode,
      "memories.json": JSON.stringify({ format: "threadkeeper-export", memories: [] }),
    });
    expect(formats(await readAll(ours))).toEqual(["account: files", "account: blob", "account: blob", "claude-code", "account: memories"]);
    const theirs = await zip("claude-ai.zip", {
      "conversations.json": fixture("claude-conversations.json"),
      "memories.json": JSON.stringify({ conversations_memory: "likes gardening", project_memories: {} }),
      "files/diagram.png": "not ours",
    });
    expect(formats(await readAll(theirs)).filter((f) => f.startsWith("account"))).toEqual([]);
  });
});
