/**
 * Document and image blocks: validating their sources like the API does, reading PDFs (text per
 * page, through unpdf) and building the citations a reply may carry.
 *
 * PDF text extraction is asynchronous, so the server awaits `preparePdfs` before counting; the
 * counter then reads `pdfPages` synchronously from a cache keyed by the data's hash.
 */
import { createHash } from "node:crypto";
import { extractText, getDocumentProxy } from "unpdf";
import { invalid } from "./errors";
import { readImageInfo } from "./images";
import type { Citation } from "./types";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const PDF_CACHE_LIMIT = 200;
const pdfCache = new Map<string, string[]>();



function dataKey(data: string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function decodeBase64(data: unknown, path: string): Buffer {
  if (typeof data !== "string" || data.length % 4 !== 0 || !BASE64_RE.test(data)) {
    throw invalid(`${path}.source.base64.data: Invalid base64 data`);
  }
  return Buffer.from(data, "base64");
}

/** Page texts of an already prepared base64 PDF (undefined when it was never prepared). */
export function pdfPages(data: string): string[] | undefined {
  return pdfCache.get(dataKey(data));
}

/** Every block of a message's content, with its path; tool_result content is walked into. */
export function* walkBlocks(messages: readonly { content: unknown }[]): Generator<{ block: Record<string, unknown>; path: string }> {
  for (const [i, m] of messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    for (const [j, block] of m.content.entries()) {
      if (!isRecord(block)) continue;
      yield { block, path: `messages.${i}.content.${j}` };
      if (block.type === "tool_result" && Array.isArray(block.content)) {
        for (const [k, inner] of block.content.entries()) if (isRecord(inner)) yield { block: inner, path: `messages.${i}.content.${j}.content.${k}` };
      }
    }
  }
}

function checkImage(block: Record<string, unknown>, path: string): void {
  const source = block.source;
  if (!isRecord(source)) throw invalid(`${path}.source: Field required`);
  if (source.type === "url" || source.type === "file") return;
  if (source.type !== "base64") throw invalid(`${path}.source.type: Input should be 'base64', 'url' or 'file'`);
  if (typeof source.media_type !== "string" || !IMAGE_TYPES.includes(source.media_type)) {
    throw invalid(`${path}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
  }
  const info = readImageInfo(decodeBase64(source.data, path));
  if (info === null) throw invalid(`${path}.source.base64.data: Could not process image`);
  if (info.mediaType !== source.media_type) {
    throw invalid(`${path}.source.base64.media_type: Image does not match the provided media type ${source.media_type}`);
  }
}

async function checkDocument(block: Record<string, unknown>, path: string): Promise<void> {
  const source = block.source;
  if (!isRecord(source)) throw invalid(`${path}.source: Field required`);
  switch (source.type) {
    case "base64": {
      if (source.media_type !== "application/pdf") throw invalid(`${path}.source.base64.media_type: Input should be 'application/pdf'`);
      const bytes = decodeBase64(source.data, path);
      if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") throw invalid(`${path}.source.base64.data: The PDF specified was not valid.`);
      const key = dataKey(source.data as string);
      if (pdfCache.has(key)) return;
      try {
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        const { text } = await extractText(pdf, { mergePages: false });
        if (pdfCache.size >= PDF_CACHE_LIMIT) pdfCache.delete(pdfCache.keys().next().value as string);
        pdfCache.set(key, text);
      } catch {
        throw invalid(`${path}.source.base64.data: The PDF specified was not valid.`);
      }
      return;
    }
    case "text":
      if (source.media_type !== "text/plain") throw invalid(`${path}.source.text.media_type: Input should be 'text/plain'`);
      if (typeof source.data !== "string") throw invalid(`${path}.source.text.data: Input should be a valid string`);
      return;
    case "content":
      if (typeof source.content !== "string" && !Array.isArray(source.content)) throw invalid(`${path}.source.content.content: Field required`);
      return;
    case "url":
      if (typeof source.url !== "string") throw invalid(`${path}.source.url.url: Field required`);
      return;
    case "file":
      return;
    default:
      throw invalid(`${path}.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'`);
  }
}

/** Validates image and document sources and extracts the text of every PDF; throws ApiError. */
export async function preparePdfs(messages: readonly { content: unknown }[]): Promise<void> {
  for (const { block, path } of walkBlocks(messages)) {
    if (block.type === "image") checkImage(block, path);
    else if (block.type === "document") await checkDocument(block, path);
  }
}

/** Text of a content-source document's blocks, one entry per block. */
function contentSourceBlocks(source: Record<string, unknown>): string[] {
  if (typeof source.content === "string") return [source.content];
  if (!Array.isArray(source.content)) return [];
  return source.content.map((b: unknown) => (isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : ""));
}

function firstSentence(text: string): string {
  const trimmed = text.trim();
  const end = trimmed.search(/[.!?](\s|$)/);
  return end === -1 ? trimmed.slice(0, 200) : trimmed.slice(0, end + 1);
}

/**
 * A citation quoting the first sentence of document `index` (among the request's documents);
 * null when it has no citations enabled or nothing to quote.
 */
export function citeDocument(messages: readonly { content: unknown }[], index: number | undefined): Citation | null {
  const docs = [...walkBlocks(messages)].map((b) => b.block).filter((b) => b.type === "document");
  const documentIndex = index ?? docs.length - 1;
  const doc = docs[documentIndex];
  if (!doc || !isRecord(doc.citations) || doc.citations.enabled !== true || !isRecord(doc.source)) return null;
  const title = typeof doc.title === "string" ? doc.title : null;
  const source = doc.source;
  if (source.type === "base64" && typeof source.data === "string") {
    const pages = pdfPages(source.data) ?? [];
    const page = pages.findIndex((p) => p.trim() !== "");
    if (page === -1) return null;
    return { type: "page_location", cited_text: firstSentence(pages[page]), document_index: documentIndex, document_title: title, start_page_number: page + 1, end_page_number: page + 2, file_id: null };
  }
  if (source.type === "text" && typeof source.data === "string") {
    const quote = firstSentence(source.data);
    const start = source.data.indexOf(quote);
    return { type: "char_location", cited_text: quote, document_index: documentIndex, document_title: title, start_char_index: start, end_char_index: start + quote.length, file_id: null };
  }
  if (source.type === "content") {
    const blocks = contentSourceBlocks(source);
    const at = blocks.findIndex((t) => t.trim() !== "");
    if (at === -1) return null;
    return { type: "content_block_location", cited_text: blocks[at], document_index: documentIndex, document_title: title, start_block_index: at, end_block_index: at + 1, file_id: null };
  }
  return null;
}
