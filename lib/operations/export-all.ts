// Everything of a user as one ZIP, streamed as it is written (yazl): each session's JSON (every
// version, compactions, checkpoints, its canvas) and Markdown, the memories and facts, and the
// files' bytes. Entries are produced only when the ZIP reaches them, so memory holds one
// session or one file at a time, whatever the account's size.
import "server-only";
import { Readable } from "node:stream";
import yazl from "yazl";
import type { SessionExportJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { fileJson, recentFiles } from "@/lib/db/files";
import { allMemories, memoryJson } from "@/lib/db/memories";
import { allSessionTitles } from "@/lib/db/sessions";
import { sessionMarkdown } from "@/lib/export/markdown";
import { titleFileName } from "@/lib/files/classify";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/storage";
import { getCanvas } from "./canvas";
import { exportSession } from "./export";

const entryName = (s: string) => titleFileName(s, "untitled");

/** An entry whose bytes are made when the ZIP comes to it. */
function lazy(zip: yazl.ZipFile, name: string, make: () => Promise<Buffer | string>): void {
  zip.addReadStreamLazy(name, (cb) => {
    make().then(
      (body) => cb(null, Readable.from([Buffer.from(body)])),
      (err: unknown) => cb(err, Readable.from([])),
    );
  });
}

/** The ZIP as a stream; a failure midway ends it early (the client sees a cut-off download). */
export async function exportAccount(userId: string): Promise<Readable> {
  const zip = new yazl.ZipFile();
  const [sessions, files] = await withUser(userId, async (tx) => [await allSessionTitles(tx, userId), await recentFiles(tx, userId, 1_000_000)] as const);
  // The JSON and the Markdown of a session come one after the other: read it once for both.
  let last: { id: string; doc: Promise<SessionExportJson> } | null = null;
  const docOf = (id: string) => {
    if (last?.id !== id) last = { id, doc: exportSession(userId, id) };
    return last.doc;
  };
  for (const s of sessions) {
    const base = `sessions/${entryName(s.title)} (${s.id.slice(0, 8)})`;
    lazy(zip, `${base}.json`, async () => JSON.stringify({ ...(await docOf(s.id)), canvas: await getCanvas(userId, s.id) }, null, 2));
    lazy(zip, `${base}.md`, async () => sessionMarkdown(await docOf(s.id)));
  }
  lazy(zip, "memories.json", async () => JSON.stringify({ memories: (await withUser(userId, (tx) => allMemories(tx, userId))).map(memoryJson) }, null, 2));
  zip.addBuffer(Buffer.from(JSON.stringify({ files: files.map(fileJson) }, null, 2)), "files.json");
  for (const f of files) {
    lazy(zip, `files/${f.id.slice(0, 8)} ${entryName(f.name)}`, async () => Buffer.from((await fileStore().get(userId, f.sha256)) ?? new Uint8Array()));
  }
  zip.end();
  const out = zip.outputStream as Readable;
  out.on("error", (err) => log.error("[threadkeeper] account export failed:", err));
  return out;
}
