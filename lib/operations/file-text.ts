// A file's text and what it costs: a text file's at once, a PDF's on a worker thread
// (lib/files/pdf.ts) in the background after the upload has answered. The first moments are
// waited for, so a short PDF answers with its exact figures and a broken or encrypted one is
// refused before anything is stored; a send waits for any of its files still being read, so
// the message's stored count is the file's real cost.
import "server-only";
import type { ExtractionState } from "@/lib/contract/files";
import { withUser } from "@/lib/db";
import { fileById, insertPages, setExtracted } from "@/lib/db/files";
import { AppError } from "@/lib/errors";
import { aboutLine } from "@/lib/files/classify";
import { PDF_TIME_BUDGET_MS, PdfError, readPdf } from "@/lib/files/pdf";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/storage";
import { documentTokens, PDF_PAGE_IMAGE_TOKENS } from "@/lib/tokens/media";
import { countPartsOffThread, pdfFactsOffThread } from "@/lib/tokens/off-thread";

/** How long an upload waits for a PDF's text before answering with an estimate. */
const UPLOAD_WAIT_MS = 1_000;
/** A page's text before it has been read: the middle of the API docs' 1,500–3,000 range is too pessimistic for most documents. */
const ESTIMATED_PAGE_TEXT_TOKENS = 800;

export interface Figures {
  tokens: number;
  pages: number | null;
  extraction: ExtractionState;
  about: string | null;
}

/** A PDF's pages from its page objects ("/Type /Page", not "/Pages"), before it is parsed. */
export function estimatePdfTokens(bytes: Uint8Array): { tokens: number; pages: number } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const pages = Math.max(1, (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length);
  return { pages, tokens: pages * (PDF_PAGE_IMAGE_TOKENS + 30 + ESTIMATED_PAGE_TEXT_TOKENS) };
}

export async function textFileTokens(text: string): Promise<number> {
  const [raw] = await countPartsOffThread([{ texts: [text], fixed: 0 }]);
  return documentTokens({ kind: "text", pages: 1, textTokens: raw });
}

/** A PDF's text per page and the figures it gives the file. */
async function pdfText(bytes: Uint8Array): Promise<{ figures: Figures; pages: string[] }> {
  const { pageTexts } = await readPdf(bytes, { timeoutMs: PDF_TIME_BUDGET_MS });
  const facts = await pdfFactsOffThread(pageTexts);
  return { figures: { tokens: documentTokens(facts), pages: facts.pages, extraction: "done", about: aboutLine(pageTexts.join("\n")) }, pages: pageTexts };
}

const PROBLEMS: Partial<Record<PdfError["problem"], string>> = {
  encrypted: "The PDF is encrypted; remove its password and attach it again.",
  unreadable: "The PDF is corrupt: it could not be read.",
  too_many_pages: "The PDF has more than 600 pages, more than Claude reads in one request.",
  too_large: "The PDF is larger than 32 MB, more than Claude reads in one request.",
};

function refusal(err: unknown): AppError | null {
  if (!(err instanceof PdfError)) return null;
  const message = PROBLEMS[err.problem];
  return message ? new AppError(err.problem === "too_large" ? 413 : 400, err.problem === "too_large" ? "file_too_large" : "invalid_file", message) : null;
}

// Extractions in flight in this process, by file id: a send of the file waits for it here.
const inflight = new Map<string, Promise<void>>();

/**
 * Starts reading a PDF's text. Answers `done` when it finished within the upload's wait, or
 * `later`, which saves the result on the file's row when it comes. Refuses (throws) a PDF found
 * encrypted, corrupt or over the page limit within the wait.
 */
export async function startPdfExtraction(
  bytes: Uint8Array,
): Promise<{ done?: { figures: Figures; pages: string[] }; later?: (userId: string, fileId: string) => void }> {
  const reading = pdfText(bytes);
  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    reading.then(
      (done) => ({ done }),
      (err: unknown) => ({ err }),
    ),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), UPLOAD_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (waited && "done" in waited) return { done: waited.done };
  if (waited && "err" in waited) {
    const refused = refusal(waited.err);
    if (refused) throw refused;
    // Too slow or no reader on this server: Claude still reads the PDF itself.
    return { later: (userId, fileId) => void save(userId, fileId, Promise.reject(waited.err)) };
  }
  return { later: (userId, fileId) => void save(userId, fileId, reading) };
}

function save(userId: string, fileId: string, reading: Promise<{ figures: Figures; pages: string[] }>): Promise<void> {
  const work = reading
    .then(async ({ figures, pages }) => {
      await withUser(userId, async (tx) => {
        await insertPages(tx, userId, fileId, pages);
        await setExtracted(tx, fileId, figures);
      });
    })
    .catch(async (err: unknown) => {
      log.warn(`[threadkeeper] the text of file ${fileId} could not be read; Claude still reads the PDF itself`, err instanceof Error ? err.message : err);
      await withUser(userId, async (tx) => {
        const f = await fileById(tx, userId, fileId);
        if (f) await setExtracted(tx, fileId, { tokens: f.tokens, pages: f.pages, extraction: "failed", about: f.about });
      }).catch(() => {});
    })
    .finally(() => inflight.delete(fileId));
  inflight.set(fileId, work);
  return work;
}

/**
 * Waits until none of these files is still being read: an extraction running here is awaited,
 * one left pending by another instance (or a restart) is run now.
 */
export async function ensureExtracted(userId: string, files: readonly { id: string; sha256: string; extraction: ExtractionState }[]): Promise<void> {
  for (const f of files) {
    if (f.extraction !== "pending") continue;
    const running = inflight.get(f.id);
    if (running) {
      await running;
      continue;
    }
    const bytes = await fileStore().get(userId, f.sha256);
    if (!bytes) continue;
    await save(userId, f.id, pdfText(bytes));
  }
}
