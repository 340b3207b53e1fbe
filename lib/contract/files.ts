import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

// Files in the conversation: what an upload is, what it may be, and what it costs. The limits
// follow Claude's own (outside-formats.md §2): an image of 5 MB (the smallest of the platforms'
// per-image limits), a PDF of 32 MB and 600 pages (the API's request limit), a text file of
// 5 MB (about a million tokens: more than any window).

export const FILE_KINDS = ["image", "pdf", "text"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** The most bytes one file of each kind may have. */
export const FILE_LIMITS: Record<FileKind, number> = {
  image: 5 * 1024 * 1024,
  pdf: 32 * 1024 * 1024,
  text: 5 * 1024 * 1024,
};

/** The largest upload of any kind: the multipart body may be this plus its envelope. */
export const MAX_FILE_BYTES = Math.max(...Object.values(FILE_LIMITS));

/** Names of the kinds that work, for the message of a refused type. */
export const ACCEPTED_TYPES_TEXT =
  "images (PNG, JPEG, GIF, WebP), PDFs, and text files (plain text, Markdown, CSV, JSON, logs and source code)";

/** A file name as stored and shown: at most this many characters. */
export const MAX_FILE_NAME = 255;

/** How far a file's text has been read: PDFs are read in the background after the upload answers. */
export const extractionState = z.enum(["pending", "done", "failed", "none"]);

export const fileInfo = named(
  "File",
  z.object({
    id: uuidString(),
    session_id: described(uuidString().nullable(), "The session it was attached to (null once that session is deleted and another still uses the file)."),
    name: described(z.string(), "As uploaded, with path and control characters removed; show it escaped."),
    media_type: z.string(),
    kind: z.enum(FILE_KINDS),
    size: described(count(), "Bytes."),
    sha256: described(z.string(), "Hex digest of the bytes: the same bytes from one user are stored once."),
    tokens: described(count(), "What the file costs in Claude's context while its turn is in the window (an estimate until its text has been read)."),
    pages: described(count().nullable(), "A PDF's pages."),
    width: count().nullable(),
    height: count().nullable(),
    extraction: described(extractionState, "pending: a PDF's text is still being read (tokens is an estimate); failed: its text could not be read, Claude still reads the PDF itself; none: an image."),
    about: described(z.string().nullable(), "One line on what the file is about (its first words), shown in references once its turn has left the window."),
    created_at: timestamp(),
  }),
  "An attached file. Its bytes are at `GET /api/files/{id}`.",
);

export const fileUploaded = named("FileUploaded", z.object({ file: fileInfo }));

export const sessionFiles = named("SessionFiles", z.object({ files: z.array(fileInfo) }), "The session's files, newest first.");

export const storageUsage = named(
  "StorageUsage",
  z.object({
    used_bytes: described(count(), "Bytes of your stored files (the same bytes counted once)."),
    quota_bytes: described(count(), "THREADKEEPER_STORAGE_QUOTA_MB of this server."),
    files: count(),
  }),
);

/** Files on one message: Claude.ai's 20 per chat is the familiar ceiling. */
export const MAX_ATTACHMENTS = 20;

/** A file attached to a message: its id, or `{ id, by_reference: true }` to give Claude only a one-line reference and `open_file`. */
export const attachment = z.union([
  uuidString(),
  z.object({ id: uuidString(), by_reference: z.boolean().optional() }).strict(),
]);

export type FileInfo = z.infer<typeof fileInfo>;
export type StorageUsageJson = z.infer<typeof storageUsage>;
export type Attachment = z.infer<typeof attachment>;
export type ExtractionState = z.infer<typeof extractionState>;
