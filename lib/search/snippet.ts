// Where a hit's excerpt comes from: the query's words found in the (already redacted) text.
// Pure. Matching is by word start on a crudely stemmed term, close enough to Postgres'
// English stemming to find the words full-text search matched.

const SNIPPET_CHARS = 300;
const LEAD_CHARS = 80;
const STOP = new Set("a an and are as at be by for from has have i in is it its of on or that the this to was were what when where which who why will with you".split(" "));

/** The query's words, lowercased and stemmed, without stopwords or negated terms. */
export function queryTerms(q: string): string[] {
  const terms = new Set<string>();
  for (const raw of q.toLowerCase().split(/\s+/)) {
    if (raw.startsWith("-")) continue; // websearch syntax: excluded from matches
    for (const w of raw.split(/[^\p{L}\p{N}_]+/u)) {
      if (w.length < 2 || STOP.has(w)) continue;
      terms.add(stem(w));
    }
  }
  return [...terms];
}

function stem(w: string): string {
  const m = /^(.{3,}?)(?:ations?|ments?|ings?|ions?|ies|ed|es|ly|er|s)$/u.exec(w);
  return m ? m[1] : w;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Offsets of the words that start with one of the terms, with the term matched. */
function occurrences(text: string, terms: readonly string[]): { at: number; term: string }[] {
  if (terms.length === 0) return [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])(${terms.map(escapeRe).join("|")})`, "giu");
  const out: { at: number; term: string }[] = [];
  for (const m of text.matchAll(re)) out.push({ at: m.index, term: m[1].toLowerCase() });
  return out;
}

/** Start of the window holding the most distinct terms, or -1 when no term occurs. */
export function bestMatch(text: string, terms: readonly string[]): number {
  const occ = occurrences(text, terms);
  let best = -1;
  let bestCount = 0;
  for (let i = 0; i < occ.length; i++) {
    const seen = new Set<string>();
    for (let j = i; j < occ.length && occ[j].at - occ[i].at < SNIPPET_CHARS - LEAD_CHARS; j++) seen.add(occ[j].term);
    if (seen.size > bestCount) {
      bestCount = seen.size;
      best = occ[i].at;
    }
  }
  return best;
}

/** Up to `size` characters around `at`, cut at word boundaries, with ellipses where cut. */
function windowAt(text: string, at: number, size: number, lead: number): string {
  if (text.length <= size) return text;
  let start = Math.max(0, Math.min(at - lead, text.length - size));
  let end = Math.min(text.length, start + size);
  if (start > 0) {
    const space = text.indexOf(" ", start);
    if (space !== -1 && space < at) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > at) end = space;
  }
  return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}

/** The excerpt a hit shows: around the best match, else the text's start. */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const at = bestMatch(flat, terms);
  return windowAt(flat, Math.max(0, at), SNIPPET_CHARS, at < 0 ? 0 : LEAD_CHARS);
}

/** A long text cut to `max` characters, keeping its start and, if the match lies beyond, the match. */
export function truncateAround(text: string, terms: readonly string[], max: number): string {
  if (text.length <= max) return text;
  const at = bestMatch(text, terms);
  const half = Math.floor(max / 2);
  if (at < 0 || at < max - 200) return `${text.slice(0, max).trimEnd()}…`;
  return `${text.slice(0, half).trimEnd()} … ${windowAt(text, at, max - half, 200)}`;
}
