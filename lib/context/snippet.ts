// Where a hit's excerpt comes from, and which of its words it highlights: the query's words
// found in the (already redacted) text.
// Pure. Matching is by word start on a crudely stemmed term, close enough to Postgres'
// English stemming to find the words full-text search matched.

const SNIPPET_CHARS = 300;
const LEAD_CHARS = 80;
/** PostgreSQL's English stopwords: words full-text search never matched, so never highlighted. */
export const STOP = new Set(
  ("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its " +
    "itself they them their theirs themselves what which who whom this that these those am is are was were be been being " +
    "have has had having do does did doing a an the and but if or because as until while of at by for with about against " +
    "between into through during before after above below to from up down in out on off over under again further then once " +
    "here there when where why how all any both each few more most other some such no nor not only own same so than too " +
    "very s t can will just don should now").split(" "),
);

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

/** Offsets of the first `most` words that start with one of the terms, with the term matched. */
function occurrences(text: string, terms: readonly string[], most = Infinity): { at: number; term: string }[] {
  if (terms.length === 0) return [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])(${terms.map(escapeRe).join("|")})`, "giu");
  const out: { at: number; term: string }[] = [];
  for (const m of text.matchAll(re)) {
    out.push({ at: m.index, term: m[1].toLowerCase() });
    if (out.length >= most) break;
  }
  return out;
}

/**
 * Occurrences a best match weighs: a text that names the terms thousands of times (a pasted log,
 * a hostile one) has its best window among the first of them, and weighing every one cost more
 * than a request may hold the event loop.
 */
const MATCHES_WEIGHED = 1_000;

/** Start of the window holding the most distinct terms, or -1 when no term occurs. */
export function bestMatch(text: string, terms: readonly string[]): number {
  const occ = occurrences(text, terms, MATCHES_WEIGHED);
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

/** How much of a file's page Claude reads around the words found (open_file's search, recall). */
export const READING_EXCERPT = { chars: 900, lead: 300 } as const;

/**
 * Up to `size` characters around the best match (from the start when none), line breaks kept:
 * a longer excerpt for Claude to read (open_file's search, a file page recall found), where a
 * page's lines carry meaning (code, a table, a log).
 */
export function excerptOf(text: string, terms: readonly string[], size: number, lead: number): string {
  const at = bestMatch(text, terms);
  return windowAt(text, Math.max(0, at), size, at < 0 ? 0 : lead);
}

/** The excerpt a hit shows: around the best match, else the text's start. */
export function snippetOf(text: string, terms: readonly string[]): string {
  if (text.length > FLATTEN_WHOLE) return snippetOfLong(text, terms);
  const flat = flatten(text).trim();
  const at = bestMatch(flat, terms);
  return windowAt(flat, Math.max(0, at), SNIPPET_CHARS, at < 0 ? 0 : LEAD_CHARS);
}

const flatten = (s: string) => s.replace(/\s+/g, " ");

/** Texts longer than this are flattened only around their match: a whole megabyte took 150 ms. */
const FLATTEN_WHOLE = 64 * 1024;
/** How much of a long text, either side of its match, is flattened for the excerpt. */
const AROUND = 2_000;

/** snippetOf for a long text: the match found in the text as it is (whitespace does not move word starts). */
function snippetOfLong(text: string, terms: readonly string[]): string {
  const match = bestMatch(text, terms);
  const from = match < 0 ? 0 : Math.max(0, match - AROUND);
  const to = Math.min(text.length, Math.max(match, 0) + AROUND);
  const head = flatten(text.slice(from, Math.max(match, from)));
  const lead = from === 0 ? head.length - head.trimStart().length : 0;
  const piece = flatten(text.slice(from, to)).slice(lead);
  let snippet = windowAt(piece, match < 0 ? 0 : head.length - lead, SNIPPET_CHARS, match < 0 ? 0 : LEAD_CHARS);
  if (from > 0 && !snippet.startsWith("…")) snippet = `…${snippet}`;
  if (to < text.length && !snippet.endsWith("…")) snippet = `${snippet}…`;
  return snippet;
}

/** A long text cut to `max` characters, keeping its start and, if the match lies beyond, the match. */
export function truncateAround(text: string, terms: readonly string[], max: number): string {
  if (text.length <= max) return text;
  const at = bestMatch(text, terms);
  const half = Math.floor(max / 2);
  if (at < 0 || at < max - 200) return `${text.slice(0, max).trimEnd()}…`;
  return `${text.slice(0, half).trimEnd()} … ${windowAt(text, at, max - half, 200)}`;
}

/** A text split into runs, the words that start with one of the terms marked: what a hit highlights. */
export function highlightRuns(text: string, terms: readonly string[]): { text: string; match: boolean }[] {
  const runs: { text: string; match: boolean }[] = [];
  let from = 0;
  for (const { at } of occurrences(text, terms)) {
    if (at < from) continue;
    const end = at + (/^[\p{L}\p{N}_]+/u.exec(text.slice(at))?.[0].length ?? 0);
    if (at > from) runs.push({ text: text.slice(from, at), match: false });
    runs.push({ text: text.slice(at, end), match: true });
    from = end;
  }
  if (from < text.length) runs.push({ text: text.slice(from), match: false });
  return runs;
}
