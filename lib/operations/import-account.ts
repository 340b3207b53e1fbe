// What Threadkeeper's whole-account ZIP holds beside its sessions, restored into the importing
// account as the reader meets it (import-read.ts yields the parts in the ZIP's order): the list
// of files first, then each file's text by page and its bytes (stored, with a new id the
// sessions' messages are remapped to), then, after the sessions, the memories and facts (their
// sessions found by the exported ids the imported sessions keep as their source). Everything is
// found again by what it is, so importing the same ZIP twice adds nothing. A file or memory that
// cannot be restored is reported like a conversation that cannot, and the rest go on.
import "server-only";
import { storableValue } from "@/lib/contract/input-guard";
import { filePagesExport, filesExport, memoriesExport, projectsExport, type FilesExportJson } from "@/lib/contract/exchange";
import type { MemoryJson } from "@/lib/contract/memory";
import { withUser, type Tx } from "@/lib/db";
import { isDataError } from "@/lib/db/driver";
import { findRestoredMemory, insertRestoredMemory, setFileSession, setSupersededBy } from "@/lib/db/exchange";
import { importedSession, recordOutcome, type ImportError } from "@/lib/db/imports";
import { ensureProject } from "@/lib/db/projects";
import { AppError } from "@/lib/errors";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { restoreFile } from "./files";
import type { AccountPart } from "./import-read";
import type { ImportLinks } from "./import-restore";

type ListedFile = FilesExportJson["files"][number];

export class AccountRestore implements ImportLinks {
  /** The export's file ids as this account's: what the sessions' messages are remapped to. */
  readonly files = new Map<string, string>();
  /** The export's checkpoint ids as this account's: what forks are linked to. */
  readonly checkpoints = new Map<string, string>();
  private readonly byEntry = new Map<string, ListedFile>();
  private readonly byPagesEntry = new Map<string, ListedFile>();
  private readonly pages = new Map<string, string[]>();
  /** The export's project ids as this account's projects of the same names: what memories name. */
  private readonly projects = new Map<string, string>();
  /** Restored files whose session is yet to come: new file id → the exported session id. */
  private readonly fileSessions = new Map<string, string>();

  constructor(
    private readonly userId: string,
    private readonly importId: string,
  ) {}

  async take(read: AccountPart, bytesRead: number): Promise<void> {
    // What PostgreSQL cannot store, made storable as in a conversation (import-store.ts).
    const part = read.kind === "blob" ? read : { ...read, value: storableValue(read.value) };
    if (part.kind === "projects") {
      const list = projectsExport.safeParse(part.value);
      if (!list.success) return this.fail(bytesRead, { source_id: "projects.json", title: null, reason: "The list of projects is not one Threadkeeper wrote; sessions keep theirs by name." });
      await withUser(this.userId, async (tx) => {
        for (const p of list.data.projects) {
          // A name no project may have is left out: its memories keep no project.
          const id = await ensureProject(tx, this.userId, p.name, p.created_at);
          if (id) this.projects.set(p.id, id);
        }
      });
      return;
    }
    if (part.kind === "files") {
      const list = filesExport.safeParse(part.value);
      if (!list.success) return this.fail(bytesRead, { source_id: "files.json", title: null, reason: "The list of files is not one Threadkeeper wrote; no file was restored." });
      for (const f of list.data.files) {
        // An export from before the entries were named: its bytes are at "files/<id8> <name>".
        if (f.entry) this.byEntry.set(f.entry, f);
        else this.byEntry.set(`files/${f.id.slice(0, 8)} `, f);
        if (f.pages_entry) this.byPagesEntry.set(f.pages_entry, f);
      }
      return;
    }
    if (part.kind === "memories") return this.memories(part.value, bytesRead);
    const paged = this.byPagesEntry.get(part.name);
    if (paged) {
      const p = filePagesExport.safeParse(safeJson(part.bytes));
      if (p.success) this.pages.set(paged.id, p.data.pages);
      return;
    }
    const f = this.byEntry.get(part.name) ?? this.byEntry.get(`${part.name.slice(0, "files/".length + 8)} `);
    if (!f) return;
    try {
      const id = await restoreFile(this.userId, f, new Uint8Array(part.bytes), this.pages.get(f.id) ?? []);
      this.files.set(f.id, id);
      if (f.session_id) this.fileSessions.set(id, f.session_id);
    } catch (err) {
      if (!(err instanceof AppError) && !isDataError(err)) throw err;
      await this.fail(bytesRead, { source_id: f.id, title: f.name, reason: `The file could not be restored: ${(err as Error).message}` });
    } finally {
      this.pages.delete(f.id);
    }
  }

  /** After the last part: restored files join the sessions they were attached to. */
  async finish(): Promise<void> {
    if (this.fileSessions.size === 0) return;
    await withUser(this.userId, async (tx) => {
      for (const [fileId, exported] of this.fileSessions) {
        const session = await importedSession(tx, this.userId, "threadkeeper", exported);
        if (session) await setFileSession(tx, this.userId, fileId, session);
      }
    });
  }

  private async memories(value: unknown, bytesRead: number): Promise<void> {
    const parsed = memoriesExport.safeParse(value);
    if (!parsed.success) return this.fail(bytesRead, { source_id: "memories.json", title: null, reason: "The memories are not a list Threadkeeper wrote; none was restored." });
    const ids = new Map<string, string>();
    const embedder = getEmbedder();
    for (const m of parsed.data.memories) {
      const [vector] = await embedder.embed([m.summary], "document");
      try {
        ids.set(m.id, await withUser(this.userId, (tx) => this.memory(tx, m, vector && vector.some((x) => x !== 0) ? toPgVector(vector) : null, embedder.model)));
      } catch (err) {
        if (!isDataError(err)) throw err;
        await this.fail(bytesRead, { source_id: m.id, title: null, reason: `The memory could not be restored: ${(err as Error).message}` });
      }
    }
    // A fact replaced by a newer one points at it: both have their new ids now.
    await withUser(this.userId, async (tx) => {
      for (const m of parsed.data.memories) {
        const by = m.fact?.superseded_by ? ids.get(m.fact.superseded_by) : undefined;
        const id = ids.get(m.id);
        if (by && id) await setSupersededBy(tx, this.userId, id, by);
      }
    });
  }

  private async memory(tx: Tx, m: MemoryJson, embedding: string | null, embeddingModel: string): Promise<string> {
    const known = await findRestoredMemory(tx, this.userId, { kind: m.kind, summary: m.summary, createdAt: m.created_at });
    if (known) return known;
    const sessionId = m.session_id ? await importedSession(tx, this.userId, "threadkeeper", m.session_id) : null;
    const f = m.fact;
    return insertRestoredMemory(tx, this.userId, {
      sessionId,
      projectId: m.project_id ? (this.projects.get(m.project_id) ?? null) : null,
      source: m.source,
      kind: m.kind,
      summary: m.summary,
      keyDecisions: m.key_decisions,
      codeReferences: m.code_references,
      tags: m.tags,
      pinned: m.pinned,
      embedding,
      embeddingModel,
      createdAt: m.created_at,
      expiresAt: m.expires_at,
      fact: f
        ? {
            subject: f.subject,
            attribute: f.attribute,
            value: f.value,
            fromSeq: f.from_seq,
            throughSeq: f.through_seq,
            validFrom: f.valid_from,
            validUntil: f.valid_until,
            seenCount: f.seen_count,
            lastSeenAt: f.last_seen_at,
          }
        : null,
    });
  }

  private fail(bytesRead: number, error: ImportError): Promise<void> {
    return withUser(this.userId, (tx) => recordOutcome(tx, this.importId, { format: "threadkeeper", bytesRead, outcome: "failed", error }));
  }
}

function safeJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
}
