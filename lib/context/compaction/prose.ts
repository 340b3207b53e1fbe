// Text helpers shared by the extractor, the verifier and the extractive summary.

/** A fenced block: opening fence (with optional info string) to a closing fence on its own line. */
const FENCE_RE = /```[^\n`]*\n(?:[\s\S]*?\n)?[ \t]*```/g;

export interface CodeBlock {
  text: string;
  index: number;
}

/**
 * Separates fenced code from prose. The prose keeps the code's place as blanks (newlines
 * kept), so offsets into it are offsets into the original and code never glues two
 * sentences together.
 */
export function splitCode(text: string): { prose: string; blocks: CodeBlock[] } {
  const blocks: CodeBlock[] = [];
  const prose = text.replace(FENCE_RE, (match: string, index: number) => {
    blocks.push({ text: match, index });
    return match.replace(/[^\n]/g, " ");
  });
  return { prose, blocks };
}

export function normalizeWs(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export interface Located {
  text: string;
  index: number;
}

/** Lines with their offsets, skipping blank ones. */
export function linesOf(text: string, base = 0): Located[] {
  const out: Located[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    if (line.trim() !== "") out.push({ text: line, index: base + at });
    at += line.length + 1;
  }
  return out;
}

const BULLET_RE = /^\s*(?:[-*+•]|\d{1,3}[.)]|>)\s+/;

export function stripBullet(line: string): string {
  return line.replace(BULLET_RE, "");
}

// A sentence ends at . ! or ? (optionally closed by a quote or bracket) followed by space and
// something that can start a sentence. "index.ts is" or "v0.5.x" have no space after the dot.
// Titles ("Dr. Patel") end in a dot but not a sentence.
const BOUNDARY_RE = /(?<!\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Mt|Jr|Sr|vs))[.!?]+["')\]]?\s+(?=[A-Z0-9`"'(\[*_~])/g;

/** Sentences of prose, per line (a line break always ends a sentence), bullets stripped. */
export function sentencesOf(prose: string): Located[] {
  const out: Located[] = [];
  for (const line of linesOf(prose)) {
    const body = stripBullet(line.text);
    const offset = line.index + (line.text.length - body.length);
    let start = 0;
    const push = (end: number) => {
      const raw = body.slice(start, end);
      const text = raw.trim();
      if (text !== "") out.push({ text, index: offset + start + (raw.length - raw.trimStart().length) });
    };
    for (const m of body.matchAll(BOUNDARY_RE)) {
      const end = m.index + m[0].trimEnd().length;
      push(end);
      start = m.index + m[0].length;
    }
    push(body.length);
  }
  return out;
}

/** The first sentence of prose, without splitting the rest. */
export function firstSentenceOf(prose: string): Located | undefined {
  const at = prose.search(/\S/);
  if (at < 0) return undefined;
  const lineEnd = prose.indexOf("\n", at);
  return sentencesOf(prose.slice(0, lineEnd < 0 ? prose.length : lineEnd))[0];
}

/** At most `max` chars, cut at a word boundary when one is near; always a prefix of `s`. */
export function capText(s: string, max = 300): string {
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(" ", max);
  return s.slice(0, cut > max * 0.6 ? cut : max).trimEnd();
}

/** Replaces every match of `re` by spaces of the same length, keeping offsets. */
export function blankOut(text: string, re: RegExp): string {
  return text.replace(re, (m: string) => " ".repeat(m.length));
}
