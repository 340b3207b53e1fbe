// What images and documents cost, by the API's rules rather than by their bytes (a 17 KB PDF
// can cost 28k tokens; a 5 MB photo costs the same as a 300 KB one of the same size). Pure
// arithmetic on sizes and page counts, so the browser can show the same figures: reading the
// sizes is lib/files, counting the text is the tokenizer.
//
// Unlike the text estimates these are Claude's own counts, not cl100k's; callers still
// multiply the whole message by the calibration factor, as they did for the flat image
// allowance these replace, so they stay on the safe side.

/** A width and height in pixels (lib/files/image-size.ts reads them from the bytes). */
export interface Size {
  width: number;
  height: number;
}

/**
 * Which resize rule a model applies to images. "high" is the high-resolution tier of Claude
 * 4.7 and later; the model registry will carry the flag, callers pass it through.
 */
export type VisionTier = "standard" | "high";

/**
 * platform.claude.com/docs/en/build-with-claude/vision (read through a mirror of the page in
 * the docs search, Nov 2026): "Each patch is a 28×28 pixel block of the image, referred to as
 * a visual token. An image therefore costs ⌈width / 28⌉ × ⌈height / 28⌉ visual tokens"; an
 * image larger than the model's native resolution "is first resized to the largest possible
 * size that preserves the aspect ratio", then padded to whole patches. The limits per tier
 * and the worked example (1920×1080 → 1456×819, 1,560 tokens standard; 2,691 unresized
 * high-resolution) are from /work/shared/reference/outside-formats.md §2 (a vision.md extract
 * of 2026-07-30); a third-party table of count_tokens results matches that example exactly.
 */
export const VISION_TIERS: Record<VisionTier, { maxEdge: number; maxTokens: number }> = {
  standard: { maxEdge: 1568, maxTokens: 1568 },
  high: { maxEdge: 2576, maxTokens: 4784 },
};

const PATCH = 28;

/** Visual tokens of an image shown at exactly this size (padded to whole patches). */
export function patchTokens({ width, height }: Size): number {
  return Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
}

/**
 * The size Claude sees: the image itself if it is within the tier's long edge and token cap,
 * else the largest size of the same aspect ratio that is. The long edge is searched (tokens
 * only grow with it), the short edge follows it rounded, at least 1 px. A bad size (zero,
 * negative, not finite) answers null: the caller counts the worst case.
 */
export function fitImage(size: Size, tier: VisionTier = "standard"): Size | null {
  const { width, height } = size;
  if (!(Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0)) return null;
  const { maxEdge, maxTokens } = VISION_TIERS[tier];
  const w = Math.round(width);
  const h = Math.round(height);
  if (Math.max(w, h) <= maxEdge && patchTokens({ width: w, height: h }) <= maxTokens) return { width: w, height: h };
  const long = Math.max(w, h);
  const short = Math.min(w, h);
  const at = (edge: number): Size => {
    const other = Math.max(1, Math.round((edge * short) / long));
    return w >= h ? { width: edge, height: other } : { width: other, height: edge };
  };
  // Largest long edge in [1, min(long, maxEdge)] whose size is within the cap; 1 px always is.
  let lo = 1;
  let hi = Math.min(long, maxEdge);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (patchTokens(at(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}

/**
 * An image's tokens on the tier. Unknown size (a URL or file source, or bytes whose header we
 * could not read): the tier's cap, the most any image can cost, since an underestimate is
 * what overflows a window.
 */
export function imageTokens(size: Size | null, tier: VisionTier = "standard"): number {
  const seen = size ? fitImage(size, tier) : null;
  return seen ? patchTokens(seen) : VISION_TIERS[tier].maxTokens;
}

/**
 * What a document costs, computed once when the block is stored (the PDF is read then) and
 * kept with it, so counting a history never re-reads a file. `textTokens` is the tokenizer's
 * raw estimate of the extracted text (all pages) or of the plain-text source.
 */
export interface DocumentFacts {
  kind: "pdf" | "text";
  pages: number;
  textTokens: number;
}

/**
 * The image half of a PDF page. platform.claude.com/docs/en/build-with-claude/pdf-support: the
 * system converts each page into an image and extracts its text, and a PDF's tokens depend on
 * the text extracted and the number of pages (typically 1,500–3,000 text tokens a page, plus
 * each page's image at the vision rules, per outside-formats.md §2); no page resolution is
 * given. Our documented default: each page is rendered at the largest size the standard tier
 * keeps, so it costs the standard cap. Third-party count_tokens measurements (⚠ secondary: a
 * scanned one-page PDF ≈ 1,600 tokens on both 4.5 and 5.5 models) agree, and show the
 * high-resolution tier not applied to pages, so there is no tier parameter here.
 */
export const PDF_PAGE_IMAGE_TOKENS = VISION_TIERS.standard.maxTokens;

/** Per-page framing beside text and image (page markers); a guess calibration absorbs. */
const PDF_PAGE_OVERHEAD = 30;
/** Framing of a plain-text document block (its source wrapper, title and context markers). */
const TEXT_DOCUMENT_OVERHEAD = 20;

/**
 * A PDF whose facts we could not compute (a URL or file source, which the server never
 * downloads): one page at the top of the docs' 1,500–3,000 text range, plus its image.
 * Not a worst case (600 pages would be), just the least surprising guess.
 */
export const UNKNOWN_PDF_TOKENS = 3_000 + PDF_PAGE_IMAGE_TOKENS + PDF_PAGE_OVERHEAD;

/** Tokens of a document block's content, from its facts (title and context are text apart). */
export function documentTokens(facts: DocumentFacts | null): number {
  if (!facts) return UNKNOWN_PDF_TOKENS;
  const pages = Math.max(0, Math.floor(facts.pages));
  const text = Math.max(0, facts.textTokens);
  if (facts.kind === "text") return text + TEXT_DOCUMENT_OVERHEAD;
  return text + pages * (PDF_PAGE_IMAGE_TOKENS + PDF_PAGE_OVERHEAD);
}
