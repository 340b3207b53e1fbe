// LoCoMo (Maharana et al., ACL 2024): real long conversations between two people over dated
// sessions, with annotated questions. Read at run time from a folder outside the repository
// (never copied in); this module turns one file into turns and questions, and holds the
// references the product is judged against: Okapi BM25 over single turns and the answer-words
// check. Pure.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
// PostgreSQL's English stop words, as the README's BM25 reference removed them.
import { STOP } from "@/lib/context/snippet";

export interface LocomoTurn {
  /** "D3:5": session 3, fifth turn. */
  diaId: string;
  session: number;
  speaker: string;
  /** The message as fed to the product: `[<session date>] <speaker>: <text>` (and the photo's caption). */
  message: string;
}

export interface LocomoSession {
  n: number;
  date: string;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  answer: string;
  evidence: string[];
  category: number;
}

export interface LocomoConversation {
  id: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  /** Answerable questions (categories 1-4) whose evidence names turns of the conversation. */
  questions: LocomoQuestion[];
}

/** The development split, beside the project's folder; LOCOMO_DIR points elsewhere. */
export function locomoDir(): string {
  return process.env.LOCOMO_DIR || path.resolve(process.cwd(), "../shared/data/locomo-dev");
}

export function locomoFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((f) => path.join(dir, f));
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** "D3:5" (and the odd "D3:05" or "D:3:5" of the release) as [session, turn]. */
export function parseDiaId(id: string): [number, number] | null {
  const m = /^D:?(\d+):(\d+)$/.exec(id.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
}

const canonicalId = (id: string) => {
  const p = parseDiaId(id);
  return p ? `D${p[0]}:${p[1]}` : id;
};

export function loadConversation(file: string): LocomoConversation {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const sessions: LocomoSession[] = [];
  for (let n = 1; Array.isArray(raw[`session_${n}`]); n++) {
    const date = String(raw[`session_${n}_date_time`] ?? "");
    const turns = (raw[`session_${n}`] as RawTurn[]).map((t) => ({
      diaId: canonicalId(t.dia_id),
      session: n,
      speaker: t.speaker,
      message: `[${date}] ${t.speaker}: ${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ""}`,
    }));
    sessions.push({ n, date, turns });
  }
  const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
  const questions = ((raw.qa as (LocomoQuestion & { answer: unknown })[]) ?? [])
    .filter((q) => q.category >= 1 && q.category <= 4 && q.answer !== undefined)
    .map((q) => ({ question: q.question, answer: String(q.answer), category: q.category, evidence: q.evidence.flatMap((e) => e.split(/[;,]\s*/)).map(canonicalId).filter((e) => known.has(e)) }))
    .filter((q) => q.evidence.length > 0);
  return { id: path.basename(file, ".json"), speakers: [String(raw.speaker_a), String(raw.speaker_b)], sessions, questions };
}

// ------------------------------------------------------------------ words

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export const contentWords = (text: string) => words(text).filter((w) => !STOP.has(w));

/** A crude suffix stem, so "hiking" in an answer finds "hike" in the text and "dogs" finds "dog". */
const stem = (w: string) => /^(.{3,}?)(?:ations?|ments?|ings?|ions?|ies|ed|es|ly|er|s)$/u.exec(w)?.[1] ?? w;

/** A text's words for `answerWordsIn`. */
export const answerIndex = (text: string): ReadonlySet<string> => new Set(words(text).map(stem));

/**
 * Whether every content word of the gold answer occurs, stemmed, among the text's words: the
 * "answer visible" check. An answer of stop words only counts by its words.
 */
export function answerWordsIn(index: ReadonlySet<string>, answer: string): boolean {
  const want = contentWords(answer);
  const all = want.length > 0 ? want : words(answer);
  return all.length > 0 && all.every((w) => index.has(stem(w)));
}

// ------------------------------------------------------------------ BM25 reference

/** Okapi BM25 (k1 1.2, b 0.75) over documents of content words, as the README's reference. */
export class Bm25 {
  private readonly df = new Map<string, number>();
  private readonly docs: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private avg = 0;

  constructor(texts: readonly string[], private readonly k1 = 1.2, private readonly b = 0.75) {
    for (const t of texts) {
      const tf = new Map<string, number>();
      const ws = contentWords(t);
      for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push(tf);
      this.lengths.push(ws.length);
    }
    this.avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Indexes of the best `k` documents for the query, best first. */
  top(query: string, k: number): number[] {
    const n = this.docs.length;
    const terms = [...new Set(contentWords(query))];
    const scores = this.docs.map((tf, i) => {
      let s = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * this.lengths[i]) / this.avg));
      }
      return s;
    });
    return scores
      .map((s, i) => ({ s, i }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, k)
      .map((x) => x.i);
  }
}
