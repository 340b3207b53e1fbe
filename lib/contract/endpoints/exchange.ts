import { E } from "../error-cases";
import { group } from "../endpoint";
import { z } from "zod";
import { exportQuery, sessionExport } from "../exchange";
import { DEFAULT_IMPORT_MAX_BYTES, importJob, importsQuery } from "../imports";
import { idParams } from "../requests";

const importAnswer = z.object({ import: importJob });

export const exchange = group("Import and export", "Bring your history from ChatGPT, Claude.ai and Claude Code; take your conversations, whole, elsewhere.", {
  startImport: {
    method: "POST",
    path: "/api/import",
    summary: "Import an export file: ChatGPT, Claude.ai, Claude Code or Threadkeeper",
    description: [
      "The file as the multipart field `file`, or (with an API key or bearer token) as the body itself with its content type. The format is told by the content: a ChatGPT export (its ZIP, `conversations.json` or the `conversations-NNN.json` shards), a Claude.ai export (its ZIP, or several, or `conversations.json`), Claude Code transcripts (`.jsonl`, several in a ZIP of a projects folder), or Threadkeeper's own JSON export.",
      "",
      "The answer comes as soon as the file is received (202); the conversations are read and stored in the background: follow `GET /api/import/{id}`. Each conversation becomes a session with its original times, title and models, its other branches as earlier versions; it is imported whole or not at all, one that cannot be read is reported in `errors` and the rest go on. A conversation imported before (the same id in the export) is skipped, so importing a file again adds nothing.",
      "",
      "Larger than `THREADKEEPER_IMPORT_MAX_BYTES` (default 2 GB): 413, refused from the declared length before any of it is read.",
    ].join("\n"),
    scope: "write",
    upload: { field: "file", description: "The export file.", maxBytes: DEFAULT_IMPORT_MAX_BYTES, streamed: true },
    responses: { 202: { description: "Received; reading in the background.", json: importAnswer } },
    errors: [E.payloadTooLarge, E.storageFull],
  },
  listImports: {
    method: "GET",
    path: "/api/import",
    summary: "Your imports, newest first",
    query: importsQuery,
    responses: { 200: { description: "The imports.", json: z.object({ imports: z.array(importJob) }) } },
  },
  getImport: {
    method: "GET",
    path: "/api/import/{id}",
    summary: "How far an import has got, and what failed",
    params: idParams,
    responses: { 200: { description: "The import.", json: importAnswer } },
    errors: [E.notFound],
  },
  cancelImport: {
    method: "POST",
    path: "/api/import/{id}/cancel",
    summary: "Stop a running import between two conversations, or its archiving between two sessions; what was stored stays",
    params: idParams,
    responses: { 200: { description: "The import, cancelled (or as it ended, if it had).", json: importAnswer } },
    errors: [E.notFound],
  },
  archiveImport: {
    method: "POST",
    path: "/api/import/{id}/archive",
    summary: "Archive the sessions an import made into memories",
    description:
      "Each session the import stored is archived as the session menu's Archive does: a summary memory (by Claude Haiku, or extractive without a key: one summarizer call per session) and its facts, and the session is marked archived. One session at a time in the background; follow `archive` on `GET /api/import/{id}`; `POST /api/import/{id}/cancel` stops it between two sessions. Asked again, it carries on with the sessions not archived yet.",
    scope: "write",
    params: idParams,
    responses: { 202: { description: "Archiving, in the background (or already under way).", json: importAnswer } },
    errors: [E.notFound, E.importRunning, E.nothingToArchive],
  },
  exportAccount: {
    method: "GET",
    path: "/api/export",
    summary: "Export everything as a ZIP",
    description:
      "`projects.json`, every session (`sessions/<title> (<id>).json`, which imports back, and `.md` to read: every version, the compactions and checkpoints, the canvas), `memories.json` (summaries and facts), `files.json` and the files' bytes under `files/`. Streamed as it is written, so it starts at once whatever the account's size.",
    responses: { 200: { description: "The ZIP.", binary: "application/zip" } },
  },
  exportSession: {
    method: "GET",
    path: "/api/session/{id}/export",
    summary: "Export a session as JSON (lossless, imports back) or Markdown (to read)",
    description:
      "`format=json` (the default): every message of every version, the compactions and checkpoints, and the system prompt. `format=md`: the conversation as it stands, for people: edited and regenerated turns show their current version, thinking and tool calls fold into `<details>`, each compaction's summary sits where it happened. Both come as a download (`Content-Disposition: attachment`).",
    params: idParams,
    query: exportQuery,
    responses: {
      200: { description: "The session.", json: sessionExport, markdown: "The conversation as Markdown." },
    },
    errors: [E.notFound],
  },
});
