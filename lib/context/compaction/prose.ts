// Text helpers shared by the extractor, the verifier and the extractive summary.

/** A fence's opening line: ``` and an optional info string, anywhere on a line. */
const OPENER_RE = /```[^\n`]*\n/g;
/** A closing fence: ``` at the start of a line, after spaces or tabs. */
const CLOSER_RE = /^[ \t]*```/gm;

export interface CodeBlock {
  text: string;
  index: number;
}

/**
 * The fenced blocks: each opener with the first closer on a later line. Done with two scans
 * rather than one regex: a regex that seeks the closer lazily from every opener reads to the
 * end of the text for each opener that has none, quadratic on a paste of "a```" lines.
 */
function fencedBlocks(text: string): CodeBlock[] {
  const closers: { at: number; end: number }[] = [];
  for (const m of text.matchAll(CLOSER_RE)) closers.push({ at: m.index, end: m.index + m[0].length });
  const blocks: CodeBlock[] = [];
  let c = 0;
  OPENER_RE.lastIndex = 0;
  for (let m = OPENER_RE.exec(text); m; m = OPENER_RE.exec(text)) {
    const bodyAt = m.index + m[0].length;
    while (c < closers.length && closers[c].at < bodyAt) c++;
    // No closer after this opener means none after any later one either.
    if (c === closers.length) break;
    // As the regex this replaces read it: a closer right after the opening line ends the block
    // only when no later line holds one.
    const close = closers[c].at === bodyAt && c + 1 < closers.length ? closers[c + 1] : closers[c];
    blocks.push({ text: text.slice(m.index, close.end), index: m.index });
    OPENER_RE.lastIndex = close.end;
    c = closers.indexOf(close) + 1;
  }
  return blocks;
}

/**
 * Separates fenced code from prose. The prose keeps the code's place as blanks (newlines
 * kept), so offsets into it are offsets into the original and code never glues two
 * sentences together.
 */
export function splitCode(text: string): { prose: string; blocks: CodeBlock[] } {
  if (!text.includes("```")) return { prose: text, blocks: [] };
  const blocks = fencedBlocks(text);
  let prose = "";
  let at = 0;
  for (const b of blocks) {
    prose += text.slice(at, b.index) + b.text.replace(/[^\n]/g, " ");
    at = b.index + b.text.length;
  }
  return { prose: prose + text.slice(at), blocks };
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
// A match starts only where a run of terminators starts, or one character into a run after a
// title (the second lookbehind): from further inside a run it could only fail again, and
// retrying at each of its characters was quadratic on "!!!…".
const TITLE = String.raw`\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Mt|Jr|Sr|vs)`;
const BOUNDARY_RE = new RegExp(String.raw`(?<!${TITLE})(?<!(?<!${TITLE})[.!?])[.!?]+["')\]]?\s+(?=[A-Z0-9\x60"'(\[*_~])`, "g");

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
