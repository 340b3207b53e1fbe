// Files in the window (pure): the blocks an attached file becomes, which files a message
// carries, how a stored file goes over the wire (its bytes put back, or one line when it was
// attached by reference or has been deleted), and the one-line references Claude keeps to the
// files whose turns have left the window, with open_file to bring back what it needs.
import type { FileKind } from "@/lib/contract/files";
import type { ContentBlock, FileReferenceBlock } from "@/lib/contract/messages";
import { imageTokens } from "@/lib/tokens/media";

/** open_file's name: here, not beside its definition (lib/context/tools.ts), so the browser can name its calls without the tokenizer. */
export const OPEN_FILE_TOOL_NAME = "open_file";

/**
 * The part of a file an open_file call asks for, in words ("page 3", "pages 2-4", "lines 120-180",
 * "“revenue”" for a search), for the chat to say what Claude reopened. Without a part: page 1, as
 * the tool reads it.
 */
export function openFilePart(input: unknown): string {
  const { pages, lines, search } = (input ?? {}) as { pages?: unknown; lines?: unknown; search?: unknown };
  const range = (r: string) => r.replace(/\s+/g, "");
  if (typeof search === "string" && search.trim()) return `“${search.trim()}”`;
  if (typeof lines === "string" && lines.trim()) return `lines ${range(lines)}`;
  if (typeof pages === "string" && pages.trim()) return `${pages.includes("-") ? "pages" : "page"} ${range(pages)}`;
  return "page 1";
}

/**
 * The file an open_file result is about: lib/operations/file-open.ts starts each answer that found
 * the file with its name in quotes (`"report.pdf"` then a newline, a comma, a colon or an image's
 * ` (640×480 px)`). The call itself carries only the id, and the message that attached the file
 * may not be loaded.
 */
export function openedFileName(text: string): string | null {
  return /^"(.+?)"(?=[\n,:]| \(|$)/.exec(text)?.[1] ?? null;
}

/** What the window needs to know of a stored file. */
export interface FileFacts {
  id: string;
  name: string;
  media_type: string;
  kind: FileKind;
  sha256: string;
  tokens: number;
  pages: number | null;
  width: number | null;
  height: number | null;
}

/** The block a file attached to a message becomes: the file itself, or one line naming it. */
export function fileBlock(f: FileFacts, byReference = false): ContentBlock {
  if (byReference) return { type: "file_reference", file_id: f.id, name: f.name, media_type: f.media_type, pages: f.pages, tokens: f.tokens };
  const note = { file_id: f.id, sha256: f.sha256, name: f.name };
  const source = { type: "threadkeeper_file" as const, file_id: f.id, media_type: f.media_type };
  if (f.kind === "image") return { type: "image", source, threadkeeper: { width: f.width ?? 0, height: f.height ?? 0, ...note } };
  return { type: "document", source, title: f.name, threadkeeper: { pages: f.pages ?? 1, tokens: f.tokens, ...note } };
}

type Part = { type: string } & Record<string, unknown>;

function storedFileId(b: Part): string | null {
  const source = b.source as { type?: unknown; file_id?: unknown } | undefined;
  return (b.type === "image" || b.type === "document") && source?.type === "threadkeeper_file" && typeof source.file_id === "string" ? source.file_id : null;
}

/** Every block of a message, the parts of its tool results included. */
function* parts(content: readonly ContentBlock[]): Generator<Part> {
  for (const b of content) {
    yield b as Part;
    if (b.type === "tool_result" && Array.isArray(b.content)) for (const p of b.content) yield p as Part;
  }
}

export interface CarriedFile {
  file_id: string;
  /** What the block costs (raw): the file's tokens, or the reference line's. */
  tokens: number;
  by_reference: boolean;
}

/** The stored files a message carries, once each. */
export function carriedFiles(content: readonly ContentBlock[]): CarriedFile[] {
  const out = new Map<string, CarriedFile>();
  for (const b of parts(content)) {
    const id = storedFileId(b);
    if (id) {
      const note = (b.threadkeeper ?? {}) as { tokens?: number; width?: number; height?: number };
      const tokens = b.type === "image" ? imageTokens(note.width && note.height ? { width: note.width, height: note.height } : null) : (note.tokens ?? 0);
      out.set(id, { file_id: id, tokens, by_reference: false });
    } else if (b.type === "file_reference") {
      const r = b as unknown as FileReferenceBlock;
      if (!out.has(r.file_id)) out.set(r.file_id, { file_id: r.file_id, tokens: 0, by_reference: true });
    }
  }
  return [...out.values()];
}

/** The ids of the stored files whose bytes a request must carry. */
export function fileIdsToSend(messages: readonly { content: readonly ContentBlock[] }[]): string[] {
  const ids = new Set<string>();
  for (const m of messages) for (const b of parts(m.content)) {
    const id = storedFileId(b);
    if (id) ids.add(id);
  }
  return [...ids];
}

/** A stored file's bytes for the wire: base64 for images and PDFs, the text itself for text files. */
export interface FileBody {
  kind: FileKind;
  media_type: string;
  data: string;
}

function describe(kind: string, pages: number | null | undefined): string {
  const k = kind === "application/pdf" || kind === "pdf" ? "PDF" : kind.startsWith("image") ? "image" : "text file";
  return pages && k !== "image" ? `${k}, ${pages} page${pages === 1 ? "" : "s"}` : k;
}

/** The line Claude reads for a file attached by reference. */
export function referenceText(r: Pick<FileReferenceBlock, "file_id" | "name" | "media_type" | "pages" | "tokens">): string {
  return `[Attached by reference: "${r.name}" (${describe(r.media_type, r.pages)}, about ${r.tokens.toLocaleString("en-US")} tokens; file_id ${r.file_id}). Read what you need of it with the open_file tool.]`;
}

/**
 * A stored-file block as the API takes it: the bytes in the API's own source, or, when the file
 * is gone (deleted by its owner), a line saying so in its place.
 */
export function wireFileBlock(b: Part, bodies: ReadonlyMap<string, FileBody> | undefined): Part | null {
  const id = storedFileId(b);
  // Without the bodies (a digest of the request) the block stands for itself, by its file's id.
  if (!id || !bodies) return null;
  const body = bodies.get(id);
  const name = (b.threadkeeper as { name?: string } | undefined)?.name ?? (b.title as string | undefined) ?? "a file";
  if (!body) return { type: "text", text: `[The file "${name}" was attached here and has since been deleted.]` };
  if (body.kind === "text") return { ...b, source: { type: "text", media_type: "text/plain", data: body.data } };
  return { ...b, source: { type: "base64", media_type: body.media_type, data: body.data } };
}

/** A session's file as the window knows it: where it is carried and what it is. */
export interface FileInSession {
  file_id: string;
  turn_seq: number;
  name: string;
  media_type: string;
  pages: number | null;
  tokens: number;
  about: string | null;
}

/**
 * The section of the system prompt naming the files whose turns are no longer in the window
 * (slid out or condensed): one line each, so Claude knows they exist and can open_file them.
 * Files still carried by a turn in the window are left out; a file carried twice is named once.
 */
export function earlierFilesSection(files: readonly FileInSession[], inWindow: (turnSeq: number) => boolean): string {
  const visible = new Set(files.filter((f) => inWindow(f.turn_seq)).map((f) => f.file_id));
  const lines = new Map<string, string>();
  for (const f of files) {
    if (visible.has(f.file_id) || lines.has(f.file_id)) continue;
    const about = f.about ? ` — ${f.about}` : "";
    lines.set(f.file_id, `- "${f.name}" (${describe(f.media_type, f.pages)}, file_id ${f.file_id}, turn ${f.turn_seq})${about}`);
  }
  if (lines.size === 0) return "";
  return `Files shared earlier in this conversation, no longer shown in full (read what you need with the open_file tool):\n${[...lines.values()].join("\n")}`;
}

/**
 * Whether Claude is offered open_file: once a file came in an earlier turn than the one being
 * answered. Never from the middle of a turn on, since a new tool definition invalidates the
 * thinking of the tool loop in progress, which the API requires sent back unchanged.
 */
export function offersOpenFile(files: readonly Pick<FileInSession, "turn_seq">[], currentTurn: number): boolean {
  return files.some((f) => f.turn_seq < currentTurn);
}

/** The files the window carries, by turn: what the bar's "files" part counts. */
export function filesTokensInWindow(files: readonly Pick<FileInSession, "file_id" | "turn_seq" | "tokens">[], inWindow: (turnSeq: number) => boolean): number {
  let total = 0;
  for (const f of files) if (inWindow(f.turn_seq)) total += f.tokens;
  return total;
}
