// Files waiting in the composer, one chip each, from the moment they are picked to the moment the
// message carrying them is accepted. Pure: the store (attachments-store.ts) runs the uploads and
// feeds their outcomes through `chipsReducer`.
import type { Attachment, FileInfo, FileKind } from "@/lib/contract/files";
import { ACCEPTED_TYPES_TEXT, FILE_LIMITS, MAX_ATTACHMENTS } from "@/lib/contract/files";
import { fileKindOf } from "@/lib/contract/file-types";
import { compactTokens, humanBytes } from "@/lib/client/format";

/**
 * A file whose tokens exceed this share of the window's capacity is offered "by reference": one
 * line for Claude instead of the whole file, so one upload cannot crowd out the conversation.
 */
export const REFERENCE_SHARE = 0.25;

export type ChipStatus = "uploading" | "ready" | "failed";

export interface FileChip {
  /** Local key: the chip exists before the server has named the file. */
  key: string;
  sessionId: string;
  name: string;
  size: number;
  kind: FileKind;
  /** An object URL of the local image, for its thumbnail (revoked when the chip goes), or the stored file's address for a restored draft. */
  previewUrl: string | null;
  status: ChipStatus;
  /** The stored file, once uploaded. */
  file: FileInfo | null;
  /** The server's words when the upload was refused. */
  error: string | null;
  byReference: boolean;
}

export type ChipAction =
  | { type: "added"; chip: FileChip }
  | { type: "uploaded"; key: string; file: FileInfo }
  | { type: "failed"; key: string; message: string }
  | { type: "removed"; key: string }
  | { type: "toggled_reference"; key: string }
  /** Fresh figures from the session's file list (a PDF's tokens and pages once read). */
  | { type: "refreshed"; files: readonly FileInfo[] }
  /** The message carrying these files was accepted: their chips leave the composer. */
  | { type: "sent"; sessionId: string; fileIds: readonly string[] };

export function chipsReducer(chips: readonly FileChip[], action: ChipAction): FileChip[] {
  const update = (key: string, f: (c: FileChip) => FileChip) => chips.map((c) => (c.key === key ? f(c) : c));
  switch (action.type) {
    case "added":
      return [...chips, action.chip];
    case "uploaded":
      return update(action.key, (c) => ({ ...c, status: "ready", file: action.file, error: null }));
    case "failed":
      return update(action.key, (c) => ({ ...c, status: "failed", error: action.message }));
    case "removed":
      return chips.filter((c) => c.key !== action.key);
    case "toggled_reference":
      return update(action.key, (c) => ({ ...c, byReference: !c.byReference }));
    case "refreshed": {
      const byId = new Map(action.files.map((f) => [f.id, f]));
      return chips.map((c) => {
        const fresh = c.file ? byId.get(c.file.id) : undefined;
        return fresh ? { ...c, file: fresh } : c;
      });
    }
    case "sent": {
      const sent = new Set(action.fileIds);
      return chips.filter((c) => !(c.sessionId === action.sessionId && c.file && sent.has(c.file.id)));
    }
  }
}

/** Why a picked file cannot be attached, in words for the user; null when it can be. */
export function refusal(name: string, mediaType: string, size: number, alreadyAttached: number): string | null {
  const kind = fileKindOf(name, mediaType);
  if (kind === null) return `“${name}” cannot be attached. Files that work: ${ACCEPTED_TYPES_TEXT}.`;
  if (size > FILE_LIMITS[kind]) return `“${name}” is ${humanBytes(size)}; ${KIND_WORDS[kind]} can be up to ${humanBytes(FILE_LIMITS[kind])}.`;
  if (size === 0) return `“${name}” is empty.`;
  if (alreadyAttached >= MAX_ATTACHMENTS) return `A message can carry at most ${MAX_ATTACHMENTS} files.`;
  return null;
}

const KIND_WORDS: Record<FileKind, string> = { image: "images", pdf: "PDFs", text: "text files" };

/** Chips still uploading keep the message from being sent; the reason says so. */
export function sendBlockedReason(chips: readonly FileChip[]): string | null {
  const uploading = chips.filter((c) => c.status === "uploading").length;
  if (uploading === 0) return null;
  return uploading === 1 ? "Wait for the file to finish uploading" : `Wait for ${uploading} files to finish uploading`;
}

/** A file is offered "by reference" when whole it would take more than REFERENCE_SHARE of the window. */
export function offersReference(chip: FileChip, capacityTokens: number | null): boolean {
  return chip.file !== null && capacityTokens !== null && capacityTokens > 0 && chip.file.tokens > capacityTokens * REFERENCE_SHARE;
}

/** A file on its way out with a message, as the pending message shows it and a retry resends it. */
export interface OutgoingFile {
  id: string;
  name: string;
  byReference: boolean;
}

/** The files a send carries: ready chips only (a failed upload stays behind with its error). */
export function outgoingFiles(chips: readonly FileChip[], capacityTokens: number | null): OutgoingFile[] {
  return chips.flatMap((c) =>
    c.status === "ready" && c.file ? [{ id: c.file.id, name: c.name, byReference: c.byReference && offersReference(c, capacityTokens) }] : [],
  );
}

/** The `attachments` of a send body. */
export function toAttachments(files: readonly OutgoingFile[]): Attachment[] {
  return files.map((f) => (f.byReference ? { id: f.id, by_reference: true } : f.id));
}

/** "12 KB · ~3.1K tokens · 4 pages": what a chip says under its name (compact: a chip is narrow). */
export function chipFacts(chip: FileChip): string[] {
  const facts = [humanBytes(chip.file?.size ?? chip.size)];
  const file = chip.file;
  if (!file) return facts;
  if (file.extraction === "pending") facts.push("reading…");
  else facts.push(`~${compactTokens(file.tokens)} tokens`);
  // A text file's "pages" are open_file's ranges of lines, not something its owner would count.
  if (file.kind === "pdf" && file.pages !== null) facts.push(`${file.pages} page${file.pages === 1 ? "" : "s"}`);
  return facts;
}

/** "Files: 12.3 MB of 1 GB, 14 files". */
export function storageUsageText(usage: { used_bytes: number; quota_bytes: number; files: number }): string {
  return `Files: ${humanBytes(usage.used_bytes)} of ${humanBytes(usage.quota_bytes)}, ${usage.files.toLocaleString("en-US")} file${usage.files === 1 ? "" : "s"}`;
}
