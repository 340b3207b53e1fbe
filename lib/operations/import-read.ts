// Reads an uploaded export, whatever it is, one conversation at a time with bounded memory:
// a ZIP (ChatGPT's, Claude.ai's old single one or the ZIPs of its 2026 manifest, a Claude Code
// projects folder, Threadkeeper's own; ZIPs inside it too), a JSON array of conversations
// (conversations.json, a shard conversations-NNN.json), a Claude Code transcript (JSON lines),
// or a Threadkeeper session export. The format is told by the content, never by the name.
// JSON is parsed by stream-json (tokens, then one array element at a time), ZIPs read by yauzl
// (entry sizes checked against what they inflate to), so neither a 500 MB file, a ZIP bomb nor
// JSON nested 100,000 deep takes more than a bounded amount of memory.
import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parser } from "stream-json";
import type { Token } from "stream-json/parser.js";
import { streamArray } from "stream-json/streamers/stream-array.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import yauzl from "yauzl";
import { EXPORT_FORMAT } from "@/lib/contract/exchange";
import { MAX_FILE_BYTES } from "@/lib/contract/files";
import type { ImportError } from "@/lib/db/imports";
import { readConversation, readSessionFile, UnknownFormat } from "@/lib/import/detect";
import { ConversationError, type ImportedConversation } from "@/lib/import/types";

export const READ_LIMITS = {
  /** Nesting of any JSON value; real exports stay under 30. */
  maxDepth: 256,
  /** One conversation (an array element, a transcript) as bytes of JSON. */
  maxConversationBytes: 256 * 1024 * 1024,
  /** Everything a ZIP inflates to, ZIPs inside it included. */
  maxInflatedBytes: 8 * 1024 * 1024 * 1024,
  /** Files in a ZIP. */
  maxEntries: 200_000,
  /** ZIPs inside ZIPs. */
  maxZipNesting: 2,
};

/** The file as a whole cannot be imported (not an export, a bomb, too deep): the import fails with this message. */
export class ImportFileError extends Error {}

/**
 * A part of Threadkeeper's whole-account ZIP that is no conversation, passed on as it is for the
 * job to check (import-account.ts): its projects, its list of files, an entry under files/ or
 * file-pages/ (read only once the list was seen), its memories.
 */
export type AccountPart =
  | { kind: "projects"; value: unknown }
  | { kind: "files"; value: unknown }
  | { kind: "memories"; value: unknown }
  | { kind: "blob"; name: string; bytes: Buffer };

export type ReadItem = ({ conversation: ImportedConversation } | { error: ImportError } | { account: AccountPart }) & {
  /** How far into the uploaded file reading has got, in bytes. */
  bytesRead: number;
};

const UNDERSTOOD =
  "Threadkeeper imports ChatGPT exports (the ZIP, conversations.json or its conversations-NNN.json shards), Claude.ai exports (the ZIP or conversations.json), Claude Code transcripts (.jsonl files or a ZIP of them) and its own JSON export.";

/** Reads the file at `file`, yielding each conversation (or why one could not be read). */
export async function* readExport(file: string, size: number): AsyncGenerator<ReadItem> {
  const head = await firstBytes(file, 4);
  if (head.length === 4 && head.readUInt32LE(0) === 0x04034b50) {
    yield* readZip(file, 0, { inflated: 0, entries: 0 }, (bytes) => Math.min(bytes, size));
  } else {
    yield* readJson(createReadStream(file), path.basename(file), (bytes) => bytes, true);
  }
}

async function firstBytes(file: string, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start: 0, end: n - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Budget = { inflated: number; entries: number; accountFiles?: boolean };

/** Which part of Threadkeeper's account export an entry at a ZIP's top level is, if any. */
function accountEntry(name: string, budget: Budget): AccountPart["kind"] | null {
  if (name === "projects.json") return "projects";
  if (name === "files.json") return "files";
  if (name === "memories.json") return "memories";
  if (budget.accountFiles && (name.startsWith("files/") || name.startsWith("file-pages/")) && !name.endsWith("/")) return "blob";
  return null;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    n += (c as Buffer).length;
    if (n > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

async function* readAccountPart(zip: yauzl.ZipFile, entry: yauzl.Entry, kind: AccountPart["kind"], budget: Budget): AsyncGenerator<AccountPart> {
  // A file's bytes are at most the largest upload; the lists, at most a conversation's size.
  const limit = kind === "blob" ? MAX_FILE_BYTES + 1024 * 1024 : READ_LIMITS.maxConversationBytes;
  const body = entry.uncompressedSize > limit ? null : await readAll(await zip.openReadStreamPromise(entry), limit);
  if (!body) return;
  if (kind === "blob") {
    yield { kind, name: entry.fileName, bytes: body };
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return; // Not ours after all: nothing to restore from it.
  }
  const v = typeof value === "object" && value !== null ? (value as { format?: unknown; files?: unknown; memories?: unknown }) : {};
  if (kind === "files") {
    if (!Array.isArray(v.files)) return;
    budget.accountFiles = true;
  }
  // Claude.ai's export has a memories.json of its own: only Threadkeeper's is read (marked, or the
  // shape of an export from before the mark).
  const ours = (m: unknown) => typeof m === "object" && m !== null && "embedding_model" in m && "kind" in m;
  if (kind === "memories" && v.format !== EXPORT_FORMAT && !(Array.isArray(v.memories) && v.memories.every(ours))) return;
  // Claude.ai's older export has a projects.json too (its projects' documents, no conversations).
  if (kind === "projects" && v.format !== EXPORT_FORMAT) return;
  yield { kind, value };
}

/** An entry's name says only whether it may hold conversations; its content says which. */
const MAYBE_CONVERSATIONS = /(^|\/)(conversations(-\d+)?\.json|[^/]+\.jsonl|[^/]+\.json|[^/]+\.zip)$/i;
/** Files of an export that hold no conversations (accounts, settings, projects, memories, the manifest). */
const NOT_CONVERSATIONS = /(^|\/)(users?|user_settings|projects?|memories|export_manifest|manifest-[^/]*|message_feedback|shared_conversations|model_comparisons|chat)\.(json|html)$/i;

async function* readZip(file: string, nesting: number, budget: Budget, scale: (bytes: number) => number): AsyncGenerator<ReadItem> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw new ImportFileError(`The file looks like a ZIP but cannot be read as one (${(err as Error).message}). ${UNDERSTOOD}`);
  }
  let sawAny = false;
  try {
    let before = 0;
    for await (const entry of zip.eachEntry()) {
      if (++budget.entries > READ_LIMITS.maxEntries) throw new ImportFileError(`The ZIP holds more than ${READ_LIMITS.maxEntries} files; no export has that many.`);
      const name = entry.fileName;
      const start = before;
      before += entry.compressedSize;
      const part = nesting === 0 ? accountEntry(name, budget) : null;
      if (part) {
        budget.inflated += entry.uncompressedSize;
        if (budget.inflated > READ_LIMITS.maxInflatedBytes) {
          throw new ImportFileError(`The ZIP inflates to more than ${READ_LIMITS.maxInflatedBytes / 1024 ** 3} GB; it is refused as a ZIP bomb would be.`);
        }
        for await (const account of readAccountPart(zip, entry, part, budget)) {
          sawAny = true;
          yield { account, bytesRead: scale(before) };
        }
        continue;
      }
      if (name.endsWith("/") || !MAYBE_CONVERSATIONS.test(name) || NOT_CONVERSATIONS.test(name) || name.includes("__MACOSX/")) continue;
      budget.inflated += entry.uncompressedSize;
      if (budget.inflated > READ_LIMITS.maxInflatedBytes) {
        throw new ImportFileError(`The ZIP inflates to more than ${READ_LIMITS.maxInflatedBytes / 1024 ** 3} GB; it is refused as a ZIP bomb would be.`);
      }
      const ratio = entry.uncompressedSize > 0 ? entry.compressedSize / entry.uncompressedSize : 0;
      const at = (inflated: number) => scale(start + Math.min(entry.compressedSize, Math.round(inflated * ratio)));
      const stream = await zip.openReadStreamPromise(entry);
      try {
        if (/\.zip$/i.test(name)) {
          if (nesting >= READ_LIMITS.maxZipNesting) throw new ImportFileError("ZIPs nested deeper than two levels are not read.");
          yield* readNestedZip(stream, nesting + 1, budget, at);
        } else {
          // Names of a Claude Code projects folder: one session per .jsonl file.
          for await (const item of readJson(stream, path.basename(name), at, false)) {
            sawAny = true;
            yield item;
          }
        }
      } catch (err) {
        // yauzl stops an entry the moment it inflates past its declared size (validateEntrySizes).
        if (err instanceof Error && /too many bytes in the stream|not enough bytes in the stream/.test(err.message)) {
          throw new ImportFileError(
            `The ZIP's entry ${name} says it holds ${entry.uncompressedSize.toLocaleString("en")} bytes but inflates to more (or less); a ZIP that misstates its sizes is refused.`,
          );
        }
        throw err;
      }
      sawAny ||= /\.zip$/i.test(name);
    }
  } finally {
    zip.close();
  }
  if (!sawAny && nesting === 0) throw new ImportFileError(`The ZIP holds no conversations. ${UNDERSTOOD}`);
}

async function* readNestedZip(stream: Readable, nesting: number, budget: Budget, at: (inflated: number) => number): AsyncGenerator<ReadItem> {
  // yauzl needs random access: the inner ZIP goes to a private temporary file first.
  const dir = await mkdtemp(path.join(os.tmpdir(), "tk-import-"));
  const inner = path.join(dir, "inner.zip");
  try {
    await pipeline(stream, createWriteStream(inner, { mode: 0o600 }));
    yield* readZip(inner, nesting, budget, () => at(Number.MAX_SAFE_INTEGER));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Counts the bytes that pass, and refuses nesting or a single value beyond the limits. */
class Guard extends Transform {
  depth = 0;
  /** Bytes read when the current conversation began (array mode: its element). */
  startedAt = 0;
  constructor(
    private readonly bytes: { read: number },
    private readonly elementDepth: number,
  ) {
    super({ objectMode: true });
  }
  override _transform(token: Token, _enc: BufferEncoding, done: (err?: Error | null, t?: Token) => void): void {
    if (token.name === "startObject" || token.name === "startArray") {
      if (this.depth === this.elementDepth) this.startedAt = this.bytes.read;
      if (++this.depth > READ_LIMITS.maxDepth) return done(new ImportFileError(`The JSON is nested more than ${READ_LIMITS.maxDepth} levels deep; no export is.`));
    } else if (token.name === "endObject" || token.name === "endArray") {
      this.depth--;
    }
    if (this.depth > this.elementDepth && this.bytes.read - this.startedAt > READ_LIMITS.maxConversationBytes) {
      return done(new ImportFileError(`One conversation is larger than ${READ_LIMITS.maxConversationBytes / 1024 ** 2} MB.`));
    }
    done(null, token);
  }
}

/**
 * The stream's first character that is not whitespace (or a byte-order mark), and the stream
 * again from its start, counting into `bytes` what passes.
 */
async function peek(stream: Readable, bytes: { read: number }): Promise<{ first: string | null; source: Readable }> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let first: string | null = null;
  for (let seen = ""; first === null; ) {
    const r = await it.next();
    if (r.done) break;
    head.push(r.value);
    seen = (seen + r.value.subarray(0, 64).toString("utf8")).replace(/^[\uFEFF\s]+/, "");
    if (seen !== "") first = seen[0];
  }
  async function* all() {
    for (const chunk of head) {
      bytes.read += chunk.length;
      yield chunk;
    }
    for (let r = await it.next(); !r.done; r = await it.next()) {
      bytes.read += r.value.length;
      yield r.value;
    }
  }
  return { first, source: Readable.from(all(), { objectMode: false }) };
}

async function* readJson(stream: Readable, name: string, at: (bytes: number) => number, topLevel: boolean): AsyncGenerator<ReadItem> {
  const bytes = { read: 0 };
  const { first, source } = await peek(stream, bytes);
  if (first !== "[" && first !== "{") {
    stream.destroy();
    if (!topLevel) return;
    throw new ImportFileError(`The file is not JSON, JSON lines or a ZIP. ${UNDERSTOOD}`);
  }
  const array = first === "[";
  const tokens = parser.asStream({ jsonStreaming: !array, packValues: true, streamValues: false });
  const guard = new Guard(bytes, array ? 1 : 0);
  const values = array ? streamArray.asStream() : streamValues.asStream();
  const flow = pipeline(source, tokens, guard, values).catch((err: unknown) => {
    values.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  const lines: unknown[] = [];
  let known = 0;
  try {
    for await (const item of values as AsyncIterable<{ value: unknown }>) {
      if (array) {
        // Until one element is known, an unknown one says the file is no export at all.
        const read = conversationItem(item.value, topLevel && known === 0);
        if ("conversation" in read) known++;
        yield { ...read, bytesRead: at(bytes.read) };
      } else {
        lines.push(item.value);
      }
    }
  } catch (err) {
    if (err instanceof ImportFileError) throw err;
    if (err instanceof UnknownFormat) throw new ImportFileError(`${err.message} ${UNDERSTOOD}`);
    throw new ImportFileError(`The file is not valid JSON (${(err as Error).message}). ${UNDERSTOOD}`);
  } finally {
    await flow;
  }
  if (!array) {
    try {
      const session = readSessionFile(lines, name);
      if (session) yield { ...session, bytesRead: at(bytes.read) };
      else if (topLevel) throw new ImportFileError(`The file is JSON but no export Threadkeeper knows. ${UNDERSTOOD}`);
    } catch (err) {
      if (err instanceof ConversationError) yield { error: { source_id: err.sourceId, title: null, reason: err.message }, bytesRead: at(bytes.read) };
      else throw err;
    }
  }
}

/** One array element as a conversation, or why not; an element of no known kind fails the file only if it is the file's own array. */
function conversationItem(value: unknown, strict: boolean): { conversation: ImportedConversation } | { error: ImportError } {
  try {
    return { conversation: readConversation(value) };
  } catch (err) {
    if (err instanceof ConversationError) return { error: { source_id: err.sourceId, title: titleOf(value), reason: err.message } };
    if (err instanceof UnknownFormat && strict) throw err;
    return { error: { source_id: idOf(value), title: titleOf(value), reason: (err as Error).message } };
  }
}

function idOf(v: unknown): string {
  const o = typeof v === "object" && v !== null ? (v as { id?: unknown; uuid?: unknown; conversation_id?: unknown }) : {};
  const id = o.id ?? o.uuid ?? o.conversation_id;
  return typeof id === "string" ? id.slice(0, 200) : "(unknown)";
}

function titleOf(v: unknown): string | null {
  if (typeof v !== "object" || v === null) return null;
  const t = (v as { title?: unknown; name?: unknown }).title ?? (v as { name?: unknown }).name;
  return typeof t === "string" ? t.slice(0, 200) : null;
}
