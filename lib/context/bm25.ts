// Okapi BM25 for history search, with the conversation around a message, and for memory
// search, where each memory stands alone. Pure.
//
// A message in a conversation often answers the one before it ("What game was it?" — "It's
// called Valorant"): its own words miss half of what it is about. So a message that holds a
// query word also scores, at a discount, the query's words said just before and just after it
// in its session, and a little for the words its session holds elsewhere. (A message holding no
// query word itself is not a candidate: on the LoCoMo development split letting context alone
// bring one in gained nothing, and it put a bare "Noted." above the message it acknowledged.)
// Weights chosen on that split (real conversations), not on our own corpora.

/** A query word with how many of the user's searchable messages hold it. */
export interface TermStat {
  lexeme: string;
  df: number;
}

export interface CorpusStat {
  /** The user's searchable messages, and their average length in words. */
  docs: number;
  avgLen: number;
}

/** A message as the scorer sees it: where it sits, its length, and the query words it holds. */
export interface ScoredDoc {
  id: string;
  sessionId: string;
  seq: number;
  len: number;
  /** Occurrences of each query lexeme the message holds. */
  tf: Readonly<Record<string, number>>;
}

const BM25_K1 = 1.2;
/** Messages' length normalisation: milder than the textbook 0.75, as measured on conversations. */
const BM25_B = 0.5;
const STANDALONE_B = 0.75;
/** Shares of the words of the messages around a message (by distance: -1 is the one before) that count for it. */
const CONTEXT_WEIGHTS: ReadonlyMap<number, number> = new Map([
  [-2, 0.2],
  [-1, 0.5],
  [1, 0.3],
]);
/** Share of a word's weight a message gets when its session holds the word elsewhere. */
const SESSION_WEIGHT = 0.3;

export function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** One word's share of a document's score: its weight, its count saturating, normalised by the document's length. */
export function termScore(weight: number, f: number, len: number, avgLen: number, b = BM25_B): number {
  return (weight * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - b + (b * len) / avgLen));
}

/** A document that stands alone (a memory): the query words it holds, its length, and the average length of its kind. */
export interface StandaloneDoc {
  id: string;
  words: readonly string[];
  len: number;
  avgLen: number;
}

/**
 * Plain BM25 (standard length normalisation) of documents that stand alone, memories: each
 * word's document frequency is counted among `matches` themselves, exact when they are every
 * document holding any query word, of `docs` searched; each document's length is judged
 * against `avgLen`, the average of its kind. A memory holds a word or not: its length is its
 * number of distinct words (a tsvector's length), so a word its turns repeat counts once, and
 * a summary of long, repetitive turns does not pass for a short one.
 */
export function standaloneScores(matches: readonly StandaloneDoc[], docs: number): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of matches) for (const t of d.words) df.set(t, (df.get(t) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const d of matches) {
    const score = d.words.reduce((n, t) => n + termScore(idf(df.get(t)!, Math.max(docs, matches.length)), 1, d.len, d.avgLen > 0 ? d.avgLen : 1, STANDALONE_B), 0);
    out.set(d.id, score);
  }
  return out;
}

const key = (sessionId: string, seq: number) => `${sessionId}:${seq}`;

/**
 * Scores of every candidate, by id. `known` holds every message the caller read (the matches
 * and whichever neighbours it fetched); a neighbour it did not read counts as holding none of
 * the words and as being of average length.
 */
export function scoreDocs(candidates: readonly ScoredDoc[], known: readonly ScoredDoc[], terms: readonly TermStat[], corpus: CorpusStat): Map<string, number> {
  const byKey = new Map(known.map((d) => [key(d.sessionId, d.seq), d]));
  const weights = new Map(terms.filter((t) => t.df > 0).map((t) => [t.lexeme, idf(t.df, Math.max(corpus.docs, t.df))]));
  const avgLen = corpus.avgLen > 0 ? corpus.avgLen : 1;
  // Which query words each session holds, among the messages read.
  const sessionWords = new Map<string, Set<string>>();
  for (const d of known) {
    const set = sessionWords.get(d.sessionId) ?? new Set<string>();
    for (const t of Object.keys(d.tf)) if (weights.has(t)) set.add(t);
    sessionWords.set(d.sessionId, set);
  }
  const out = new Map<string, number>();
  for (const d of candidates) {
    const around = [...CONTEXT_WEIGHTS].map(([offset, share]) => ({ share, doc: byKey.get(key(d.sessionId, d.seq + offset)) }));
    const len = around.reduce((n, a) => n + a.share * (a.doc?.len ?? avgLen), d.len);
    let score = 0;
    for (const [t, w] of weights) {
      const f = around.reduce((n, a) => n + a.share * (a.doc?.tf[t] ?? 0), d.tf[t] ?? 0);
      if (f > 0) score += termScore(w, f, len, avgLen);
      if (sessionWords.get(d.sessionId)?.has(t)) score += SESSION_WEIGHT * w;
    }
    out.set(d.id, score);
  }
  return out;
}

/** The positions around the messages that they take context from, less those in `have`. */
export function neighbourKeys(docs: readonly ScoredDoc[], have: readonly ScoredDoc[]): { sessionId: string; seq: number }[] {
  const read = new Set(have.map((d) => key(d.sessionId, d.seq)));
  const out = new Map<string, { sessionId: string; seq: number }>();
  for (const d of docs) {
    for (const seq of [...CONTEXT_WEIGHTS.keys()].map((o) => d.seq + o)) {
      const k = key(d.sessionId, seq);
      if (seq >= 1 && !read.has(k)) out.set(k, { sessionId: d.sessionId, seq });
    }
  }
  return [...out.values()];
}

/**
 * The query words whose matches are read in full, rarest first, up to `budget` matches in all
 * (at least the rarest word). The commoner rest still count for every message read, but do not
 * bring messages in by themselves: a message holding only common words rarely outranks one
 * holding a rare word, and reading their matches would cost what a long history holds of them.
 */
export function essentialTerms(terms: readonly TermStat[], budget: number): TermStat[] {
  const known = terms.filter((t) => t.df > 0).sort((a, b) => a.df - b.df || a.lexeme.localeCompare(b.lexeme));
  const out: TermStat[] = [];
  let total = 0;
  for (const t of known) {
    if (out.length > 0 && total + t.df > budget) break;
    out.push(t);
    total += t.df;
  }
  return out;
}
