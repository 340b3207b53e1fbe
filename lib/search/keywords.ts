// History search's keyword arm: BM25 with each message's conversation around it
// (lib/context/bm25.ts), over every match of the query's informative words.
import "server-only";
import { essentialTerms, neighbourKeys, scoreDocs, type TermStat } from "@/lib/context/bm25";
import { askedRange } from "@/lib/context/dates";
import type { Tx } from "@/lib/db";
import { lexemeQuery } from "@/lib/db/fulltext";
import { docsAt, matchingDocs, termStats, type HistoryScope, type KeywordDoc } from "@/lib/db/history-search";

/**
 * Matches read in full for the query's rarest words (see essentialTerms): enough for any
 * informative word of a long history, few enough to score in a few milliseconds.
 */
export const KEYWORD_MATCH_BUDGET = 1_000;
/**
 * When every word of the query is common (in more messages than the budget), only this many of
 * the newest messages holding them are read and ranked: the word says little about which of
 * thousands is meant, and reading them all would cost what a long history holds of it.
 */
export const COMMON_WORD_CAP = 250;
/** Best-scoring messages whose neighbours are read to score them exactly. */
const CONTEXT_CANDIDATES = 50;
/** A message said in the time a question names scores this much more. */
const DATE_BOOST = 1.5;

/** One read of the history: the messages holding any of `words`, newest first, at most `cap`. */
export interface MatchRead {
  words: TermStat[];
  cap: number;
}

/**
 * Which messages are read: within one session, the newest KEYWORD_MATCH_BUDGET holding any
 * word (all of them, in most sessions); across the history, every match of the informative
 * words, then (when they find too few) the newest matches of the rest; when every word is
 * common, the newest holding any.
 */
export function readPlan(terms: readonly TermStat[], inSession: boolean): { first: MatchRead; then: MatchRead | null } {
  const known = terms.filter((t) => t.df > 0);
  if (inSession) return { first: { words: known, cap: KEYWORD_MATCH_BUDGET }, then: null };
  const essential = essentialTerms(known, KEYWORD_MATCH_BUDGET);
  // Every word common: the newest holding any of them, ranked (those holding more come first).
  // Reading the newest holding all of them instead intersects posting lists of 100K entries
  // each at 1M messages (34 ms for two words, where walking back to 250 matches takes a few).
  if (essential.reduce((n, t) => n + t.df, 0) > KEYWORD_MATCH_BUDGET) return { first: { words: known, cap: COMMON_WORD_CAP }, then: null };
  const rest = known.filter((t) => !essential.includes(t));
  return { first: { words: essential, cap: KEYWORD_MATCH_BUDGET }, then: rest.length > 0 ? { words: rest, cap: COMMON_WORD_CAP } : null };
}

async function readMatches(tx: Tx, userId: string, scope: HistoryScope, terms: readonly TermStat[], limit: number): Promise<KeywordDoc[]> {
  const lexemes = terms.filter((t) => t.df > 0).map((t) => t.lexeme);
  const read = (r: MatchRead) => matchingDocs(tx, userId, scope, lexemeQuery(r.words.map((t) => t.lexeme)), lexemes, r.cap);
  const plan = readPlan(terms, Boolean(scope.sessionId));
  if (plan.first.words.length === 0) return [];
  const first = await read(plan.first);
  if (first.length >= limit || !plan.then) return first;
  const seen = new Set(first.map((d) => d.id));
  return [...first, ...(await read(plan.then)).filter((d) => !seen.has(d.id))];
}

/**
 * The keyword arm's best `limit` messages, best first. A first ranking counts unread neighbours
 * as holding no query word; then the best are scored again with their neighbours read, so a
 * reply is found by the question it answers.
 */
export async function keywordCandidates(tx: Tx, userId: string, scope: HistoryScope, text: string, limit: number): Promise<{ message_id: string; rank: number }[]> {
  const { terms, corpus } = await termStats(tx, userId, text);
  const matches = await readMatches(tx, userId, scope, terms, limit);
  const lexemes = terms.filter((t) => t.df > 0).map((t) => t.lexeme);
  const first = scoreDocs(matches, matches, terms, corpus);
  const candidates = [...matches].sort((a, b) => first.get(b.id)! - first.get(a.id)!).slice(0, CONTEXT_CANDIDATES);
  const known = [...matches, ...(await docsAt(tx, userId, scope, neighbourKeys(candidates, matches), lexemes))];
  const scores = scoreDocs(candidates, known, terms, corpus);
  // A question naming a time ("in May 2023", "last week") prefers what was said then.
  const range = askedRange(text, new Date());
  if (range) {
    for (const d of candidates) if (d.saidAt >= range.start && d.saidAt < range.end) scores.set(d.id, scores.get(d.id)! * DATE_BOOST);
  }
  return candidates
    .filter((d) => scores.get(d.id)! > 0)
    .sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || b.saidAt.getTime() - a.saidAt.getTime() || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((d, i) => ({ message_id: d.id, rank: i + 1 }));
}
