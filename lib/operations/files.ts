// Files in the conversation: an upload checked before anything is kept (its kind from its
// bytes, its size against its kind's limit, the user's quota), its bytes put in the file store
// once per content, its row written, and a PDF's text read in the background so the upload
// answers at once. Listing, reading back and deleting.
import "server-only";
import type { UploadedFile } from "@/lib/contract/endpoint";
import { ACCEPTED_TYPES_TEXT, type Attachment, type FileInfo, type StorageUsageJson } from "@/lib/contract/files";
import type { ContentBlock } from "@/lib/contract/messages";
import { fileBlock } from "@/lib/context/files";
import { withUser, type Tx } from "@/lib/db";
import {
  deleteFileRow,
  fileById,
  fileJson,
  hasContent,
  insertFile,
  insertPages,
  lockUserFiles,
  readTwin,
  sessionFilesByDigest,
  sessionFilesByIds,
  recentFiles,
  sessionFiles,
  storedBytes,
  copyPages,
  type FileRow,
  type NewFile,
} from "@/lib/db/files";
import { findRestoredFile, insertRestoredFile, type RestoredFile } from "@/lib/db/exchange";
import { getSession } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { AppError, badRequest, notFound } from "@/lib/errors";
import { aboutLine, classifyFile, limitFor, safeFileName, textPages, utf8Text, type Classified } from "@/lib/files/classify";
import { sha256Hex } from "@/lib/files/digest";
import { imageSize } from "@/lib/files/image-size";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/storage";
import { imageTokens } from "@/lib/tokens/media";
import { ensureExtracted, estimatePdfTokens, startPdfExtraction, textFileTokens } from "./file-text";

const DEFAULT_QUOTA_MB = 1024;

export function quotaBytes(): number {
  return (env().THREADKEEPER_STORAGE_QUOTA_MB ?? DEFAULT_QUOTA_MB) * 1024 * 1024;
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

function classify(upload: UploadedFile): Classified {
  const c = classifyFile(upload.name, upload.type, upload.bytes);
  if (!c) {
    throw new AppError(415, "unsupported_media_type", `Claude cannot read this file. These work: ${ACCEPTED_TYPES_TEXT}.`, {
      media_type: upload.type || null,
    });
  }
  const limit = limitFor(c.kind);
  if (upload.bytes.length > limit) {
    throw new AppError(413, "file_too_large", `The file is ${MB(upload.bytes.length)}; a ${c.kind === "pdf" ? "PDF" : c.kind === "image" ? "image" : "text file"} may be at most ${MB(limit)}.`, {
      max_bytes: limit,
      size: upload.bytes.length,
    });
  }
  return c;
}

type Content = readonly { sha256: string; size: number }[];

/** 413 quota_exceeded when storing this content (the bytes the user does not have yet) would pass the quota. */
async function assertRoom(tx: Tx, userId: string, content: Content): Promise<void> {
  const used = await storedBytes(tx, userId);
  let adds = 0;
  for (const c of new Map(content.map((x) => [x.sha256, x])).values()) if (!(await hasContent(tx, userId, c.sha256))) adds += c.size;
  if (used.bytes + adds <= quotaBytes()) return;
  throw new AppError(413, "quota_exceeded", `Your stored files would pass ${MB(quotaBytes())}; delete files or sessions you no longer need.`, {
    used_bytes: used.bytes,
    quota_bytes: quotaBytes(),
    size: adds,
  });
}

/**
 * Writes the rows of content whose bytes were just put, under the user's files lock with the
 * quota checked again, so concurrent uploads cannot pass it together. A refusal here leaves the
 * bytes it put, which no row counts: removing them could take the bytes of the same content
 * from an upload beside it that is about to write its row.
 */
function storing<T>(userId: string, content: Content, write: (tx: Tx) => Promise<T>): Promise<T> {
  return withUser(userId, async (tx) => {
    await lockUserFiles(tx, userId);
    await assertRoom(tx, userId, content);
    return write(tx);
  });
}

/** What the row says before any background work: the figures an image or text file has at once, a PDF's estimate. */
async function describe(c: Classified, bytes: Uint8Array): Promise<{ row: Pick<NewFile, "tokens" | "pages" | "width" | "height" | "extraction" | "about">; pages: string[] }> {
  if (c.kind === "image") {
    const size = imageSize(bytes, c.mediaType);
    if (!size) throw new AppError(400, "invalid_file", `The image could not be read: its bytes are cut short or not a ${c.mediaType} image.`);
    return { row: { tokens: imageTokens(size), pages: null, width: size.width, height: size.height, extraction: "none", about: null }, pages: [] };
  }
  if (c.kind === "text") {
    const text = utf8Text(bytes) ?? "";
    const pages = textPages(text);
    return { row: { tokens: await textFileTokens(text), pages: pages.length, width: null, height: null, extraction: "done", about: aboutLine(text) }, pages };
  }
  const estimate = estimatePdfTokens(bytes);
  return { row: { tokens: estimate.tokens, pages: estimate.pages, width: null, height: null, extraction: "pending", about: null }, pages: [] };
}

/**
 * Stores an upload for the session. Refused before anything is kept: a type Claude cannot read
 * (415), over its kind's limit (413), an image that is not one or an encrypted or broken PDF
 * (400), past the quota (413 quota_exceeded). The same bytes of this user are put once and
 * their text read once.
 */
export async function uploadFile(userId: string, sessionId: string, upload: UploadedFile): Promise<FileInfo> {
  const c = classify(upload);
  const bytes = upload.bytes;
  const sha256 = sha256Hex(bytes);
  const name = safeFileName(upload.name);
  await withUser(userId, (tx) => getSession(tx, userId, sessionId));

  const twin = await withUser(userId, (tx) => readTwin(tx, userId, sha256));
  const described = twin ? null : await describe(c, bytes);
  // A PDF's text: the first moments are waited for (a short PDF answers with its exact figures,
  // a broken or encrypted one is refused here), a long one goes on in the background.
  const pdf = c.kind === "pdf" && !twin ? await startPdfExtraction(bytes) : null;

  // Checked before the bytes are put (a refusal stores nothing), and again with the row, under the
  // user's lock, so two uploads at once cannot both pass.
  const content = [{ sha256, size: bytes.length }];
  await withUser(userId, (tx) => assertRoom(tx, userId, content));
  await fileStore().put(userId, sha256, bytes, c.mediaType);

  const figures = twin
    ? { tokens: twin.tokens, pages: twin.pages, width: twin.width, height: twin.height, extraction: twin.extraction, about: twin.about }
    : pdf?.done
      ? { ...described!.row, ...pdf.done.figures }
      : described!.row;
  const row = await storing(userId, content, async (tx) => {
    const r = await insertFile(tx, userId, { session_id: sessionId, name, media_type: c.mediaType, kind: c.kind, size: bytes.length, sha256, ...figures });
    if (twin) await copyPages(tx, userId, twin.id, r.id);
    else await insertPages(tx, userId, r.id, pdf?.done ? pdf.done.pages : described!.pages);
    return r;
  });
  if (pdf?.later) pdf.later(userId, row.id);
  return fileJson(row);
}

/**
 * A file from Threadkeeper's own export, as it was there (its name, figures, text by page and
 * time): its bytes held to their digest and to what an upload may be, and to the quota. The same
 * file imported again is found, not stored twice. Answers its id in this account.
 */
export async function restoreFile(userId: string, given: RestoredFile, bytes: Uint8Array, pages: readonly string[]): Promise<string> {
  const f = { ...given, name: safeFileName(given.name) };
  const known = await withUser(userId, (tx) => findRestoredFile(tx, userId, f));
  if (known) return known;
  if (sha256Hex(bytes) !== f.sha256) throw badRequest("Its bytes do not match the digest the export gives.");
  const c = classify({ name: f.name, type: f.media_type, bytes });
  const content = [{ sha256: f.sha256, size: bytes.length }];
  await withUser(userId, (tx) => assertRoom(tx, userId, content));
  await fileStore().put(userId, f.sha256, bytes, c.mediaType);
  return storing(userId, content, async (tx) => {
    const id = await insertRestoredFile(tx, userId, null, { ...f, media_type: c.mediaType, kind: c.kind, size: bytes.length });
    await insertPages(tx, userId, id, pages);
    return id;
  });
}

/**
 * The blocks a message's attachments become. Each must be a file of this session (attached to
 * it or carried by its messages); a PDF still being read is waited for, so the message's count
 * is the file's real cost.
 */
export async function attachmentBlocks(userId: string, sessionId: string, attachments: readonly Attachment[]): Promise<ContentBlock[]> {
  const wanted = attachments.map((a) => (typeof a === "string" ? { id: a, by_reference: false } : { id: a.id, by_reference: a.by_reference ?? false }));
  const ids = wanted.map((w) => w.id);
  const load = () => withUser(userId, (tx) => sessionFilesByIds(tx, userId, sessionId, ids));
  let rows = await load();
  const mine = new Set(rows.map((r) => r.id));
  wanted.forEach((w, i) => {
    if (!mine.has(w.id)) throw badRequest(`Invalid 'attachments.${i}': no file ${w.id} in this session; upload it with POST /api/session/${sessionId}/files`);
  });
  if (rows.some((r) => r.extraction === "pending")) {
    await ensureExtracted(userId, rows);
    rows = await load();
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.map((w) => fileBlock(byId.get(w.id)!, w.by_reference));
}

/** An image or PDF a drop-in request carried, read by lib/turn/media.ts. */
export interface MediaItem {
  sha256: string;
  kind: "image" | "pdf";
  mediaType: string;
  base64: string;
  name: string;
  width: number | null;
  height: number | null;
  pages: number | null;
  tokens: number;
  pageTexts: string[];
}

/**
 * The session's files for these contents: those it already has (a client resends its whole
 * conversation), the others stored now (bytes once per content, held to the quota). Claude's own
 * limits were checked when the request was read.
 */
export async function adoptMedia(userId: string, sessionId: string, items: readonly MediaItem[]): Promise<Map<string, FileRow>> {
  const known = await withUser(userId, (tx) => sessionFilesByDigest(tx, userId, sessionId, items.map((i) => i.sha256)));
  const out = new Map(known.map((f) => [f.sha256, f]));
  const fresh = items.filter((i) => !out.has(i.sha256));
  if (fresh.length === 0) return out;
  const decoded = fresh.map((i) => ({ item: i, bytes: Buffer.from(i.base64, "base64") }));
  const content = decoded.map((d) => ({ sha256: d.item.sha256, size: d.bytes.length }));
  await withUser(userId, (tx) => assertRoom(tx, userId, content));
  for (const d of decoded) await fileStore().put(userId, d.item.sha256, d.bytes, d.item.mediaType);
  const rows = await storing(userId, content, async (tx) => {
    const made: FileRow[] = [];
    for (const { item, bytes } of decoded) {
      const row = await insertFile(tx, userId, {
        session_id: sessionId,
        name: safeFileName(item.name),
        media_type: item.mediaType,
        kind: item.kind,
        size: bytes.length,
        sha256: item.sha256,
        tokens: item.kind === "image" ? imageTokens(item.width && item.height ? { width: item.width, height: item.height } : null) : item.tokens,
        pages: item.pages,
        width: item.width,
        height: item.height,
        extraction: item.kind === "image" ? "none" : item.pageTexts.length > 0 ? "done" : "failed",
        about: aboutLine(item.pageTexts.join("\n")),
      });
      await insertPages(tx, userId, row.id, item.pageTexts);
      made.push(row);
    }
    return made;
  });
  for (const r of rows) out.set(r.sha256, r);
  return out;
}

export async function listSessionFiles(userId: string, sessionId: string): Promise<FileInfo[]> {
  return withUser(userId, async (tx) => {
    await getSession(tx, userId, sessionId);
    return (await sessionFiles(tx, userId, sessionId)).map(fileJson);
  });
}

export async function storageOverview(userId: string): Promise<{ usage: StorageUsageJson; files: FileInfo[] }> {
  return withUser(userId, async (tx) => {
    const used = await storedBytes(tx, userId);
    const files = await recentFiles(tx, userId, 200);
    return { usage: { used_bytes: used.bytes, quota_bytes: quotaBytes(), files: used.files }, files: files.map(fileJson) };
  });
}

/** The file's row and bytes (owner only: another user's id is a 404 like a missing one). */
export async function readFile(userId: string, id: string): Promise<{ file: FileRow; bytes: Uint8Array }> {
  const file = await withUser(userId, (tx) => fileById(tx, userId, id));
  if (!file) throw notFound("File", id);
  const bytes = await fileStore().get(userId, file.sha256);
  if (!bytes) throw notFound("File", id);
  return { file, bytes };
}

export async function deleteFile(userId: string, id: string): Promise<void> {
  const orphans = await withUser(userId, (tx) => deleteFileRow(tx, userId, id));
  if (orphans === null) throw notFound("File", id);
  await removeContent(userId, orphans);
}

/**
 * Removes bytes no file row refers to any more. After the transaction that deleted the rows, so
 * a rollback never leaves a row without bytes; a failure here leaves bytes nothing counts, which
 * is logged and harmless.
 */
export async function removeContent(userId: string, digests: readonly string[]): Promise<void> {
  if (digests.length === 0) return;
  try {
    await fileStore().remove(userId, digests);
  } catch (err) {
    log.warn(`[threadkeeper] could not remove ${digests.length} stored file(s) of a deleted file or session`, err);
  }
}
