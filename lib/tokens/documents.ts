// A document's facts (media.ts) from its text: computed once when the block is stored, after
// lib/files/pdf.ts has read the PDF. The per-page counts are what documentTokens needs; large
// PDFs should go through documentFactsOffThread (off-thread.ts) instead, as their text is
// megabytes of BPE.
import type { DocumentFacts } from "./media";
import { estimateTextTokens } from "./tokenizer";

/** Facts of a PDF from its pages' extracted text (one entry per page, empty for a scan). */
export function pdfFacts(pageTexts: readonly string[]): DocumentFacts {
  let textTokens = 0;
  for (const text of pageTexts) textTokens += estimateTextTokens(text);
  return { kind: "pdf", pages: pageTexts.length, textTokens };
}

/** Facts of a plain-text document (`source: { type: "text", media_type: "text/plain", data }`). */
export function textFacts(text: string): DocumentFacts {
  return { kind: "text", pages: 1, textTokens: estimateTextTokens(text) };
}
