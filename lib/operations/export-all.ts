// Everything of a user as one ZIP, streamed as it is written (yazl): the projects, the files (a
// list, then each one's text by page and its bytes), each session's JSON (every version,
// compactions, checkpoints, window, canvas) and Markdown, then the memories and facts. The order
// is the import's: projects and files before the sessions and messages in them, memories after
// the sessions they name.
// Entries are produced only when the ZIP reaches them, so memory holds one session or one file
// at a time, whatever the account's size.
import "server-only";
import { Readable } from "node:stream";
import yazl from "yazl";
import { EXPORT_FORMAT, type ProjectsExportJson, type SessionExportJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { fileJson, pagesOf, recentFiles } from "@/lib/db/files";
import { allMemories, memoryJson } from "@/lib/db/memories";
import { listProjects } from "@/lib/db/projects";
import { allSessionTitles } from "@/lib/db/sessions";
import { sessionMarkdown } from "@/lib/export/markdown";
import { titleFileName } from "@/lib/files/classify";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/storage";
import { exportedProject, exportSession } from "./export";

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
  const [projects, sessions, files] = await withUser(
    userId,
    async (tx) => [await listProjects(tx, userId), await allSessionTitles(tx, userId), await recentFiles(tx, userId, 1_000_000)] as const,
  );
  // The JSON and the Markdown of a session come one after the other: read it once for both.
  let last: { id: string; doc: Promise<SessionExportJson> } | null = null;
  const docOf = (id: string) => {
    if (last?.id !== id) last = { id, doc: exportSession(userId, id) };
    return last.doc;
  };
  const named = files.map((f) => {
    const base = `${f.id.slice(0, 8)} ${entryName(f.name)}`;
    return { file: f, entry: `files/${base}`, pages_entry: `file-pages/${f.id.slice(0, 8)}.json` };
  });
  const projectList: ProjectsExportJson = { format: EXPORT_FORMAT, projects: projects.map(exportedProject) };
  zip.addBuffer(Buffer.from(JSON.stringify(projectList, null, 2)), "projects.json");
  const list = { format: EXPORT_FORMAT, files: named.map((n) => ({ ...fileJson(n.file), entry: n.entry, pages_entry: n.pages_entry })) };
  zip.addBuffer(Buffer.from(JSON.stringify(list, null, 2)), "files.json");
  for (const { file: f, entry, pages_entry } of named) {
    lazy(zip, pages_entry, async () => JSON.stringify({ pages: (await withUser(userId, (tx) => pagesOf(tx, userId, f.id, 1, 2_000_000_000))).map((p) => p.text) }));
    lazy(zip, entry, async () => Buffer.from((await fileStore().get(userId, f.sha256)) ?? new Uint8Array()));
  }
  for (const s of sessions) {
    const base = `sessions/${entryName(s.title)} (${s.id.slice(0, 8)})`;
    lazy(zip, `${base}.json`, async () => JSON.stringify(await docOf(s.id), null, 2));
    lazy(zip, `${base}.md`, async () => sessionMarkdown(await docOf(s.id)));
  }
  lazy(zip, "memories.json", async () => JSON.stringify({ format: EXPORT_FORMAT, memories: (await withUser(userId, (tx) => allMemories(tx, userId))).map(memoryJson) }, null, 2));
  zip.end();
  const out = zip.outputStream as Readable;
  out.on("error", (err) => log.error("[threadkeeper] account export failed:", err));
  return out;
}
