// What an uploaded file is, decided from its bytes first and its name and declared type second:
// a client's type is a hint, never trusted (an HTML page named report.pdf is not a PDF, and an
// SVG is text, never an image we would render). Pure.
import { FILE_LIMITS, MAX_FILE_NAME, type FileKind } from "@/lib/contract/files";
import { fileExtension as extension, TEXT_EXTENSIONS, TEXT_MEDIA_TYPES } from "@/lib/contract/file-types";
import { sniffImageType } from "./image-size";
import { looksLikePdf } from "./pdf";

export interface Classified {
  kind: FileKind;
  /** The strict type the file is stored and sent as. */
  mediaType: string;
}

/** Whether the bytes are UTF-8 text: valid, and without NUL (binary formats have them early). */
export function utf8Text(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The file's kind and the type it is kept as, or null when Claude cannot read it (the caller
 * answers 415). Images by their signature, PDFs by their header, text by its name or declared
 * type and valid UTF-8; text of another kind (HTML, SVG) is kept as text/plain, so it can never
 * be served as a page that runs.
 */
export function classifyFile(name: string, declaredType: string, bytes: Uint8Array): Classified | null {
  const image = sniffImageType(bytes);
  if (image) return { kind: "image", mediaType: image };
  if (looksLikePdf(bytes)) return { kind: "pdf", mediaType: "application/pdf" };
  const ext = extension(name);
  const type = declaredType.toLowerCase().split(";")[0].trim();
  if (!TEXT_EXTENSIONS.has(ext) && !TEXT_MEDIA_TYPES.test(type)) return null;
  if (utf8Text(bytes) === null) return null;
  return { kind: "text", mediaType: ext === "csv" ? "text/csv" : ext === "md" || ext === "markdown" ? "text/markdown" : "text/plain" };
}

/** The most bytes a file of this kind may have. */
export function limitFor(kind: FileKind): number {
  return FILE_LIMITS[kind];
}

// Control characters, and the bidirectional overrides that make "txt.exe" read as "exe.txt".
const UNSAFE_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * A file name safe to store and show: the last path segment only (no folders, no "..", either
 * slash), no control or invisible formatting characters, at most MAX_FILE_NAME characters with
 * the extension kept; "file" when nothing is left. Display still escapes it.
 */
export function safeFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? "").replace(UNSAFE_NAME, "").trim();
  const name = base === "." || base === ".." ? "" : base;
  const chars = [...name];
  if (chars.length === 0) return "file";
  if (chars.length <= MAX_FILE_NAME) return name;
  const ext = extension(name);
  const keep = ext.length > 0 && ext.length < 16 ? `.${ext}` : "";
  return chars.slice(0, MAX_FILE_NAME - [...keep].length - 1).join("") + "…" + keep;
}

/**
 * A file name made from a title (a download, an entry of the account's ZIP): the characters a
 * file system refuses become spaces, so "Plans / Q3" stays readable, then as safeFileName, at
 * most 80 characters; `fallback` when nothing is left.
 */
export function titleFileName(title: string, fallback: string): string {
  const spaced = title.replace(/[\\/:*?"<>|]+/g, " ").replace(UNSAFE_NAME, "").replace(/\s+/g, " ").trim().slice(0, 80).trim();
  return spaced === "" ? fallback : safeFileName(spaced);
}

/** One line on what a text is about: its first line with words in it, shortened. */
export function aboutLine(text: string, max = 120): string | null {
  for (const line of text.split("\n", 200)) {
    const t = line.replace(/\s+/g, " ").trim();
    if (/\p{L}{2,}/u.test(t)) return t.length > max ? `${t.slice(0, max - 1)}…` : t;
  }
  return null;
}

/** Lines per page of a text file, for open_file's ranges and search hits. */
export const TEXT_PAGE_LINES = 200;

/** A text file as pages of TEXT_PAGE_LINES lines. */
export function textPages(text: string): string[] {
  const lines = text.split("\n");
  const pages: string[] = [];
  for (let i = 0; i < lines.length; i += TEXT_PAGE_LINES) pages.push(lines.slice(i, i + TEXT_PAGE_LINES).join("\n"));
  return pages.length > 0 ? pages : [""];
}
