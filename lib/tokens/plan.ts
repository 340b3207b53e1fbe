// Splitting a text so that BPE stays linear. tiktoken's merge loop is quadratic in the length
// of one pre-tokenizer piece, and cl100k's pieces are maximal runs of one character class
// (letters, whitespace, punctuation), so 80 KB of one letter took 13 s. Cutting every such run
// into bounded chunks bounds each piece; everything else is encoded exactly as before.

/**
 * Longest run of one class encoded as one piece. 64 was the fastest per character measured
 * (shorter chunks pay tiktoken's per-call cost, longer ones its quadratic merge); natural
 * words never come near it, so ordinary text is cut nowhere.
 */
export const RUN_CHUNK = 64;
/** Above this many UTF-16 units a text is estimated from windows spread over it, not encoded whole. */
export const SAMPLE_ABOVE = 128 * 1024;
// 32K characters sampled: at one token a character (the densest text) ~70 ms of BPE here.
// Fewer, longer windows missed mixed pastes by up to 10 %; shorter ones add a token or so of
// cut-word error at each edge (+0.8 % on average, always over).
const WINDOWS = 64;
const WINDOW = 512;

// A run starts where the previous character is of another class (the lookbehind), so each
// character is scanned once per alternative: linear on any input, unlike `\p{L}{64,}` alone,
// which restarts inside every shorter run.
const LONG_RUN = new RegExp(
  `(?<!\\p{L})\\p{L}{${RUN_CHUNK},}|(?<!\\s)\\s{${RUN_CHUNK},}|(?<![^\\s\\p{L}\\p{N}])[^\\s\\p{L}\\p{N}]{${RUN_CHUNK},}`,
  "gu",
);

/** What to encode, and by how much to multiply the sum of the pieces' token counts. */
export interface CountPlan {
  pieces: string[];
  scale: number;
}

/** `i` moved back off the second half of a surrogate pair, so no cut splits a character. */
function cutAt(text: string, i: number): number {
  if (i <= 0 || i >= text.length) return Math.max(0, Math.min(i, text.length));
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
}

function pushBounded(text: string, into: string[]): void {
  let from = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    if (m.index > from) into.push(text.slice(from, m.index));
    const end = m.index + m[0].length;
    for (let i = m.index; i < end; ) {
      const next = cutAt(text, Math.min(end, i + RUN_CHUNK));
      into.push(text.slice(i, next));
      i = next;
    }
    from = end;
  }
  if (from < text.length) into.push(from === 0 ? text : text.slice(from));
}

/** The UTF-8 length, which is what the tokenizer reads. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 counted at each half.
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return n;
}

/** A fixed fraction in [0, 1) per window and length, so the same text always counts the same. */
function jitter(w: number, length: number): number {
  let h = Math.imul(w + 1, 0x9e3779b1) ^ Math.imul(length, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0xc2b2ae35);
  return ((h ^ (h >>> 13)) >>> 0) / 2 ** 32;
}

/**
 * The pieces whose token counts, summed and scaled, estimate the text: the text itself cut
 * only inside runs of RUN_CHUNK or more of one class; above SAMPLE_ABOVE, WINDOWS windows of
 * WINDOW units, one in each stretch of the text, scaled by its UTF-8 length. Either way the
 * work is linear in the text, and bounded for a large one.
 */
export function countPlan(text: string): CountPlan {
  const pieces: string[] = [];
  if (text.length <= SAMPLE_ABOVE) {
    pushBounded(text, pieces);
    return { pieces, scale: 1 };
  }
  const stride = text.length / WINDOWS;
  let sampled = 0;
  for (let w = 0; w < WINDOWS; w++) {
    // One window at a varying place in each stride: evenly spaced windows alias with
    // periodic text (a paste of repeated sections) and misjudge it by several percent.
    const start = cutAt(text, Math.floor(w * stride + jitter(w, text.length) * (stride - WINDOW)));
    const window = text.slice(start, cutAt(text, start + WINDOW));
    sampled += utf8Length(window);
    pushBounded(window, pieces);
  }
  // Scaled by bytes rather than characters: a character of CJK costs about five times one of
  // English, a byte about the same, so a mixed paste is judged within ~3% instead of ~10%.
  return { pieces, scale: utf8Length(text) / sampled };
}
