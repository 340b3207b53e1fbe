// What a client's images and PDFs are, read before anything is stored: their bytes checked (a
// malformed base64, an image that is not the image it says, a PDF that is not a PDF is a 400
// naming the block), an image's size and a PDF's pages and text noted on the block (its
// `threadkeeper` field, removed on the wire) for counting, search and summaries. A document
// resent with every request is read once: the facts are remembered by the digest of its bytes.
import "server-only";
import { createHash } from "node:crypto";
import type { AnthropicMessageIn } from "@/lib/contract/anthropic";
import { decodeBase64 } from "@/lib/files/base64";
import { sha256Hex } from "@/lib/files/digest";
import { imageSize } from "@/lib/files/image-size";
import { PDF_TIME_BUDGET_MS, PdfError, readPdf } from "@/lib/files/pdf";
import { AppError, badRequest } from "@/lib/errors";
import { documentTokens } from "@/lib/tokens/media";
import { pdfFactsOffThread } from "@/lib/tokens/off-thread";
import { adoptMedia, type MediaItem } from "@/lib/operations/files";
import type { ContentBlock, Role } from "@/lib/context/types";

/** A message as the drop-in stores it. */
export interface StoredMessage {
  role: Role;
  content: ContentBlock[];
}

type Block = { type: string } & Record<string, unknown>;
type Notes = Record<string | symbol, unknown>;

/** A PDF's text per page, kept with its notes under a symbol: JSON (the stored block) never carries it. */
const PAGE_TEXTS = Symbol("pageTexts");


// Facts of recently read media by the digest of their base64: a client that resends its whole
// conversation resends its PDFs too. Bounded; a miss only costs a read.
const REMEMBERED = 256;
const remembered = new Map<string, Notes>();

function remember(key: string, notes: Notes): Notes {
  remembered.set(key, notes);
  if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  return notes;
}

/**
 * All the PDFs of one request are read within this: a request of many slow PDFs (each may take
 * up to PDF_TIME_BUDGET_MS) must not hold a worker for minutes.
 */
const REQUEST_PDF_BUDGET_MS = 30_000;

const PDF_PROBLEMS: Record<PdfError["problem"], string> = {
  not_pdf: "the document is not a PDF",
  too_large: "the PDF is too large to read",
  too_many_pages: "the PDF has more pages than the API accepts",
  encrypted: "the PDF is encrypted",
  unreadable: "the PDF could not be read",
  too_slow: "the request's PDFs took too long to read",
  unavailable: "PDFs cannot be read on this server",
};

async function imageNotes(data: string, mediaType: string, at: string): Promise<Notes> {
  const bytes = decodeBase64(data);
  if (!bytes) throw badRequest(`${at}.source.data: the image's data is not valid base64`);
  const size = imageSize(bytes, mediaType);
  if (!size) throw badRequest(`${at}.source: the image's bytes are not a ${mediaType} image`);
  return { width: size.width, height: size.height, sha256: sha256Hex(bytes) };
}

async function pdfNotes(data: string, at: string, deadline: number): Promise<Notes> {
  const bytes = decodeBase64(data);
  if (!bytes) throw badRequest(`${at}.source.data: the document's data is not valid base64`);
  try {
    const left = deadline - performance.now();
    if (left <= 0) throw new PdfError("too_slow", "no time left in the request's budget");
    const { pageTexts } = await readPdf(bytes, { timeoutMs: Math.min(PDF_TIME_BUDGET_MS, Math.ceil(left)) });
    const facts = await pdfFactsOffThread(pageTexts);
    // The page texts go with the file the drop-in stores it as (storeMedia), never on the block.
    return { pages: facts.pages, text: pageTexts.join("\n\n").trim(), tokens: documentTokens(facts), sha256: sha256Hex(bytes), [PAGE_TEXTS]: pageTexts };
  } catch (err) {
    if (!(err instanceof PdfError)) throw err;
    const status = err.problem === "unavailable" ? 500 : err.problem === "too_large" ? 413 : 400;
    throw new AppError(status, status === 400 ? "invalid_request" : err.problem, `${at}.source: ${PDF_PROBLEMS[err.problem]}`);
  }
}

/** The block with its notes, or as it came when there is nothing to read. */
async function read(b: Block, at: string, deadline: number): Promise<Block> {
  const source = b.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
  if ((b.type !== "image" && b.type !== "document") || source?.type !== "base64" || typeof source.data !== "string") return b;
  const mediaType = String(source.media_type);
  if (b.type === "document" && mediaType !== "application/pdf") {
    throw badRequest(`${at}.source.media_type: base64 documents are PDFs (application/pdf); send text as a text source`);
  }
  const key = createHash("sha256").update(mediaType).update(source.data).digest("base64url");
  const notes = remembered.get(key) ?? remember(key, b.type === "image" ? await imageNotes(source.data, mediaType, at) : await pdfNotes(source.data, at, deadline));
  return { ...b, threadkeeper: notes };
}

/** The request's messages with their images and PDFs read; a block that cannot be read is a 400 naming it. */
export async function readMedia(messages: readonly AnthropicMessageIn[]): Promise<AnthropicMessageIn[]> {
  const out: AnthropicMessageIn[] = [];
  const deadline = performance.now() + REQUEST_PDF_BUDGET_MS;
  for (const [i, m] of messages.entries()) {
    if (typeof m.content === "string" || m.role === "system") {
      out.push(m);
      continue;
    }
    const content: Block[] = [];
    for (const [j, b] of m.content.entries()) {
      const at = `messages.${i}.content.${j}`;
      if (b.type === "tool_result" && Array.isArray(b.content)) {
        const parts: Block[] = [];
        for (const [k, p] of (b.content as Block[]).entries()) parts.push(await read(p, `${at}.content.${k}`, deadline));
        content.push({ ...b, content: parts });
      } else content.push(await read(b, at, deadline));
    }
    out.push({ ...m, content: content as AnthropicMessageIn["content"] });
  }
  return out;
}

/** One image or PDF of a request to keep as a stored file. */
function mediaOf(b: Block): MediaItem | null {
  const source = b.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
  const notes = b.threadkeeper as Notes | undefined;
  if ((b.type !== "image" && b.type !== "document") || source?.type !== "base64" || typeof source.data !== "string" || typeof notes?.sha256 !== "string") return null;
  const kind = b.type === "image" ? "image" : "pdf";
  const mediaType = String(source.media_type);
  const ext = kind === "pdf" ? "pdf" : mediaType.split("/")[1] ?? "png";
  const title = typeof b.title === "string" && b.title.trim() ? b.title : null;
  return {
    sha256: notes.sha256,
    kind,
    mediaType,
    base64: source.data,
    name: title ?? `${kind === "pdf" ? "document" : "image"}-${notes.sha256.slice(0, 8)}.${ext}`,
    width: typeof notes.width === "number" ? notes.width : null,
    height: typeof notes.height === "number" ? notes.height : null,
    pages: typeof notes.pages === "number" ? notes.pages : null,
    tokens: typeof notes.tokens === "number" ? notes.tokens : 0,
    pageTexts: Array.isArray(notes[PAGE_TEXTS]) ? (notes[PAGE_TEXTS] as string[]) : [],
  };
}

/** The block as a stored file: its own fields kept, the bytes replaced by the file's id. */
function asStored(b: Block, f: { id: string; name: string; sha256: string }): Block {
  const notes = { ...(b.threadkeeper as Notes) };
  delete notes.text;
  delete notes[PAGE_TEXTS];
  const media_type = (b.source as { media_type?: unknown }).media_type;
  return { ...b, source: { type: "threadkeeper_file", file_id: f.id, media_type }, threadkeeper: { ...notes, file_id: f.id, sha256: f.sha256, name: f.name } };
}

/**
 * A drop-in request's images and PDFs kept as the session's files (lib/operations/files.ts), as
 * an upload would keep them: the bytes once per content, the message holding the file's id. A
 * client resends its whole conversation, so the same bytes resolve to the same file of the
 * session, and the resent messages line up with the stored ones by content.
 */
export async function storeMedia(userId: string, sessionId: string, messages: readonly StoredMessage[]): Promise<StoredMessage[]> {
  const items = new Map<string, MediaItem>();
  const visit = (b: Block) => {
    const item = mediaOf(b);
    if (item) items.set(item.sha256, item);
  };
  for (const m of messages) for (const b of m.content as Block[]) {
    visit(b);
    if (b.type === "tool_result" && Array.isArray(b.content)) (b.content as Block[]).forEach(visit);
  }
  if (items.size === 0) return [...messages];
  const files = await adoptMedia(userId, sessionId, [...items.values()]);
  const swap = (b: Block): Block => {
    const item = mediaOf(b);
    const f = item && files.get(item.sha256);
    return f ? asStored(b, f) : b;
  };
  return messages.map((m) => ({
    ...m,
    content: (m.content as Block[]).map((b) =>
      b.type === "tool_result" && Array.isArray(b.content) ? { ...b, content: (b.content as Block[]).map(swap) } : swap(b),
    ) as StoredMessage["content"],
  }));
}
