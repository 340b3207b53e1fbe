// open_file: Claude brings back the part of a file it needs once the file's turn has left the
// window (or when the file was attached by reference): pages, a line range, or the pages where
// some words occur. It reads the text kept per page (lib/db/files.ts file_pages); an image comes
// back whole.
import "server-only";
import { z } from "zod";
import { fileBlock } from "@/lib/context/files";
import { excerptOf, queryTerms, READING_EXCERPT } from "@/lib/context/snippet";
import type { ToolResultBlock } from "@/lib/contract/messages";
import { withUser } from "@/lib/db";
import { pageCount, pagesOf, searchPages, sessionFiles, sessionFilesByIds, type FileRow } from "@/lib/db/files";
import { TEXT_PAGE_LINES } from "@/lib/files/classify";

const range = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\s*-\s*\d{1,6})?$/, "a number or a range like 3-5");

export const openFileInput = z
  .object({
    file_id: z.string().uuid(),
    pages: range.optional(),
    lines: range.optional(),
    search: z.string().trim().min(1).max(200).optional(),
  })
  .strict();

/** At most this many pages, and characters, come back at once: a window is for reading, not for a whole book. */
const MAX_PAGES = 10;
const MAX_CHARS = 40_000;

function bounds(r: string): [number, number] {
  const [a, b] = r.split("-").map((x) => Number(x.trim()));
  const from = Math.max(1, a);
  return [from, Math.max(from, b ?? a)];
}

function clip(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n[… cut at ${MAX_CHARS} characters; ask for fewer pages or lines]` : text;
}

function label(f: FileRow): string {
  return f.kind === "pdf" ? "page" : "part";
}

async function readPages(userId: string, f: FileRow, from: number, to: number): Promise<string> {
  const last = Math.min(to, from + MAX_PAGES - 1);
  const { pages, total } = await withUser(userId, async (tx) => ({ pages: await pagesOf(tx, userId, f.id, from, last), total: await pageCount(tx, userId, f.id) }));
  if (total === 0) return `"${f.name}" has no readable text (a scanned PDF, or its text is still being read).`;
  if (pages.length === 0) return `"${f.name}" has ${total} ${label(f)}s; there is no ${label(f)} ${from}.`;
  const more = last < to ? `\n[Only ${label(f)}s ${from}-${last} of the ${to - from + 1} asked for; ask again for the rest.]` : "";
  const body = pages.map((p) => `--- ${label(f)} ${p.page} of ${total} ---\n${p.text}`).join("\n\n");
  return clip(`"${f.name}"\n${body}${more}`);
}

async function readLines(userId: string, f: FileRow, from: number, to: number): Promise<string> {
  const firstPage = Math.floor((from - 1) / TEXT_PAGE_LINES) + 1;
  const lastPage = Math.floor((to - 1) / TEXT_PAGE_LINES) + 1;
  const pages = await withUser(userId, (tx) => pagesOf(tx, userId, f.id, firstPage, Math.min(lastPage, firstPage + MAX_PAGES - 1)));
  const lines = pages.flatMap((p) => p.text.split("\n").map((text, i) => ({ n: (p.page - 1) * TEXT_PAGE_LINES + i + 1, text })));
  const picked = lines.filter((l) => l.n >= from && l.n <= to);
  if (picked.length === 0) return `"${f.name}" has no line ${from}.`;
  return clip(`"${f.name}", lines ${picked[0].n}-${picked[picked.length - 1].n}:\n${picked.map((l) => `${l.n}: ${l.text}`).join("\n")}`);
}

async function search(userId: string, f: FileRow, query: string): Promise<string> {
  const hits = await withUser(userId, (tx) => searchPages(tx, userId, f.id, query, 5));
  if (hits.length === 0) return `No ${label(f)} of "${f.name}" contains "${query}".`;
  return clip(`"${f.name}": ${hits.length} ${label(f)}(s) mention "${query}" (best first; open one with pages):\n\n${hits.map((h) => `--- ${label(f)} ${h.page} ---\n${excerptOf(h.text, queryTerms(query), READING_EXCERPT.chars, READING_EXCERPT.lead).trim()}`).join("\n\n")}`);
}

/** Runs open_file for the session's user; an id that is not one of the session's files is an error Claude reads. */
export async function openFile(userId: string, sessionId: string, raw: unknown): Promise<ToolResultBlock["content"]> {
  const input = openFileInput.parse(raw);
  const [f] = await withUser(userId, (tx) => sessionFilesByIds(tx, userId, sessionId, [input.file_id]));
  if (!f) {
    const files = await withUser(userId, (tx) => sessionFiles(tx, userId, sessionId));
    throw new Error(`No file ${input.file_id} in this conversation. Its files: ${files.map((x) => `"${x.name}" (${x.id})`).join(", ") || "none"}.`);
  }
  if (f.kind === "image") return [{ type: "text", text: `"${f.name}" (${f.width}×${f.height} px):` }, fileBlock(f) as Extract<ToolResultBlock["content"], unknown[]>[number]];
  if (input.search) return search(userId, f, input.search);
  if (input.lines && f.kind === "text") return readLines(userId, f, ...bounds(input.lines));
  const [from, to] = bounds(input.pages ?? input.lines ?? "1");
  return readPages(userId, f, from, to);
}
