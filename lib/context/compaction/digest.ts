// The conversation itself, condensed: who said what, dated, in as few tokens as the budget
// allows. Sentences are chosen to cover as many distinct informative words as possible (rare
// words weigh more: names, numbers, things), so a budget spent on one topic's fifth retelling
// goes instead to a topic not yet mentioned. Chatter (greetings, thanks, exclamations, a
// question bounced back) says nothing and is never chosen. Both sides count: in a chat between
// two people both are people, and in a chat with Claude the answers matter too.
import { formatDay, resolveRelativeDates } from "@/lib/context/dates";
import { capText, normalizeWs, sentencesOf, splitCode } from "./prose";
import type { CountTokens, TranscriptTurn } from "./types";
import { engineTurns } from "./transcript";
import { isToolOutput, utterancesOf } from "./utterances";

const SENTENCE_CHARS = 300;
/** A question rarely holds the answer to a later one: its words count this much. */
const QUESTION_WEIGHT = 0.3;
/** Names and numbers are what later questions ask about. */
const SPECIFIC_WEIGHT = 1.5;
/** What a new pair of a name (or number) and a word is worth, beside a rare word's ~log(N). */
const PAIR_WEIGHT = 0.5;
/** Tokens a chosen sentence costs beyond its own (the space or line it joins). */
const JOIN_TOKENS = 1;

// Words that carry no fact: function words, and the small talk every conversation repeats.
const STOP = new Set(
  (
    "a an the and or but so if then than that this these those there here it its it's i i'm i've i'll i'd me my mine myself we we're we've " +
    "we'll us our you you're you've you'll your yours he him his she her they them their is are was were be been being am do does did done " +
    "have has had having will would can could should shall may might must to of in on at for with from by as about into over after before " +
    "up down out off just also too very really so much many more most some any all each every what which who whom whose when where why how " +
    "not no yes yeah yep ok okay oh ah aw aww wow hey hi hello thanks thank congrats congratulations awesome cool great nice amazing " +
    "wonderful fantastic incredible glad happy sounds sound fun good lol haha omg hmm well true right totally absolutely definitely " +
    "lovely sweet super proud excited exciting interesting stuff thing things lot lots pretty kind sort bit guess think feel know mean " +
    "see say tell talk keep posted luck hope care bye later soon chat catch take sure get got go going gonna want like love let let's " +
    "one something anything everything someone anyone everyone always never ever still even again now today tonight " +
    "don't doesn't didn't can't couldn't won't wouldn't shouldn't isn't aren't wasn't weren't haven't hasn't that's what's there's " +
    "he's she's they're they've you'd he'd she'd agree sure big deal bet anytime " +
    "yesterday tomorrow ago last next day days week weeks weekend month months year years morning night evening afternoon"
  ).split(" "),
);

/** A crude stem, so "hiking" and "hiked" are one word to cover. */
function stem(w: string): string {
  return w.replace(/(?:['’]s|ing|ed|es|s)$/, "").slice(0, 12) || w;
}

function wordsOf(text: string): { stem: string; specific: boolean }[] {
  const out: { stem: string; specific: boolean }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’&-]*/gu)) {
    const lower = m[0].toLowerCase();
    const s = stem(lower);
    if (STOP.has(lower) || STOP.has(s) || (lower.length < 3 && !/\d/.test(lower))) continue;
    // A capital inside the sentence is a name; a capital after a sentence start is not evidence.
    const specific = /\d/.test(lower) || (m.index > 0 && /^\p{Lu}/u.test(m[0]));
    out.push({ stem: s, specific });
  }
  return out;
}

/** The stems of names, to be ignored as words where they only say who speaks. */
export function nameStems(names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const n of names) for (const w of wordsOf(` ${n}`)) out.add(w.stem);
  return out;
}

export interface DigestSentence {
  /** Conversation order. */
  order: number;
  /** Sentences of one message (or one carried line) share it: they render on one line. */
  group: number;
  day: string | null;
  speaker: string;
  text: string;
  tokens: number;
  /** Distinct stems with their weight multiplier (specific words and questions adjust it). */
  words: Map<string, number>;
  /**
   * A name or number with each other word of the sentence ("ilse|manager"): what is said about
   * whom. A new pair is news even when both words were seen ("Ilse took over as my manager").
   */
  pairs: string[];
  /** Extra value a caller gives it (a must-keep statement inside). */
  bonus: number;
}

/** A digest line of a previous summary: already dated and resolved. */
export interface CarriedLine {
  day: string | null;
  speaker: string;
  text: string;
}

const isQuestion = (s: string) => /\?["')\]]?$/.test(s);
const FIRST_PERSON_RE = /^(?:I|I['’](?:m|ve|d|ll)|we|we['’](?:re|ve|ll)|my|our)\b/i;
/** Up to this many words, a sentence with no name or number that is not about the speaker is small talk. */
const SHORT_WORDS = 4;

/**
 * Nothing informative in it: a greeting, thanks, an exclamation, a question bounced back.
 * That is no informative word at all; or one plain one ("Anytime!"), or a few in a short
 * line ("Long time no see!"), unless the speaker says it about themselves ("I love sushi.").
 * A name or a number is always information. `ignore` holds stems that say nothing here
 * (the speakers' own names, in a chat between them); `names`, stems known to be names.
 */
/** Distinct informative words (stems) of a sentence, `ignore` left out. */
export function informativeWords(sentence: string, ignore: ReadonlySet<string> = new Set()): number {
  return new Set(wordsOf(sentence).filter((w) => !ignore.has(w.stem)).map((w) => w.stem)).size;
}

export function isChatter(sentence: string, ignore: ReadonlySet<string> = new Set(), names: ReadonlySet<string> = new Set()): boolean {
  const words = wordsOf(sentence).filter((w) => !ignore.has(w.stem));
  if (words.length === 0) return true;
  if (words.some((w) => w.specific || names.has(w.stem)) || FIRST_PERSON_RE.test(sentence)) return false;
  return words.length === 1 || sentence.split(/\s+/).length <= SHORT_WORDS;
}

/**
 * The sentences of what was said, in order (a previous digest's first), with relative dates
 * made absolute against the day each was said. Tool output and code are not conversation;
 * sentences without an informative word (after dropping the speakers' own names) are chatter
 * and left out.
 */
export function digestSentences(turns: readonly TranscriptTurn[], countTokens: CountTokens, carried: readonly CarriedLine[] = []): DigestSentence[] {
  const raw: { group: number; day: string | null; speaker: string; text: string; question: boolean }[] = [];
  let group = 0;
  const names = new Set<string>();
  for (const c of carried) {
    names.add(c.speaker);
    group++;
    for (const s of sentencesOf(c.text)) raw.push({ group, day: c.day, speaker: c.speaker, text: s.text, question: isQuestion(s.text) });
  }
  for (const turn of engineTurns(turns)) {
    turn.messages.forEach((m, i) => {
      if (isToolOutput(m, i)) return;
      for (const u of utterancesOf({ ...m, text: splitCode(m.text).prose })) {
        group++;
        names.add(u.speaker);
        for (const s of sentencesOf(u.text)) {
          const plain = normalizeWs(s.text);
          if (plain === "" || plain.includes("```")) continue;
          const text = capText(u.at ? resolveRelativeDates(plain, u.at) : plain, SENTENCE_CHARS);
          raw.push({ group, day: u.at ? formatDay(u.at) : null, speaker: u.speaker, text, question: isQuestion(plain) });
        }
      }
    });
  }
  const speakers = nameStems(names);
  const parsed = raw.map((r) => ({ ...r, words: wordsOf(r.text).filter((w) => !speakers.has(w.stem)) }));
  // A name is a name at the start of a sentence too, once it was seen capitalised inside one.
  const known = new Set(parsed.flatMap((r) => r.words.filter((w) => w.specific).map((w) => w.stem)));
  const out: DigestSentence[] = [];
  const seen = new Set<string>();
  for (const r of parsed) {
    const key = r.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const words = new Map<string, number>();
    const specific = new Set<string>();
    for (const w of r.words) {
      const isSpecific = w.specific || known.has(w.stem);
      const weight = (isSpecific ? SPECIFIC_WEIGHT : 1) * (r.question ? QUESTION_WEIGHT : 1);
      words.set(w.stem, Math.max(words.get(w.stem) ?? 0, weight));
      if (isSpecific && !r.question) specific.add(w.stem);
    }
    if (words.size === 0 || isChatter(r.text, speakers, known)) continue;
    const pairs = [...specific].flatMap((a) => [...words.keys()].filter((b) => b !== a).map((b) => (a < b ? `${a}|${b}` : `${b}|${a}`)));
    out.push({ order: out.length, group: r.group, day: r.day, speaker: r.speaker, text: r.text, tokens: countTokens(r.text) + JOIN_TOKENS, words, pairs: [...new Set(pairs)], bonus: 0 });
  }
  return out;
}

/**
 * Greedy budgeted coverage: repeatedly the sentence adding the most uncovered weight per
 * token (rarity: log(N / sentences holding the word)), until the budget is spent, after the
 * `preselected` ones (which count against it). Returns the chosen sentences in conversation
 * order.
 */
export function selectSentences(sentences: readonly DigestSentence[], budget: number, preselected: readonly DigestSentence[] = []): DigestSentence[] {
  const df = new Map<string, number>();
  for (const s of sentences) for (const w of s.words.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = sentences.length + 1;
  const idf = (w: string) => Math.log(n / (df.get(w) ?? 1));
  const covered = new Set(preselected.flatMap((s) => [...s.words.keys(), ...s.pairs]));
  const taken = new Set(preselected);
  const gain = (s: DigestSentence) => {
    let g = s.bonus;
    for (const [w, x] of s.words) if (!covered.has(w)) g += x * idf(w);
    for (const p of s.pairs) if (!covered.has(p)) g += PAIR_WEIGHT;
    return g / s.tokens;
  };
  // Lazy greedy: a sentence's value only falls as words get covered, so a stale score is an
  // upper bound and only the top needs recomputing.
  type Entry = { s: DigestSentence; score: number };
  const before = (a: Entry, b: Entry) => b.score - a.score || a.s.order - b.s.order;
  const queue: Entry[] = sentences.filter((s) => !taken.has(s)).map((s) => ({ s, score: gain(s) })).sort(before);
  const chosen: DigestSentence[] = [...preselected];
  let used = preselected.reduce((t, s) => t + s.tokens, 0);
  while (queue.length > 0) {
    const top = queue.shift() as Entry;
    const fresh = gain(top.s);
    if (fresh <= 0) continue;
    if (queue.length > 0 && fresh < queue[0].score) {
      // Back in at its place (binary search): the queue stays sorted without a full sort.
      top.score = fresh;
      let lo = 0;
      let hi = queue.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(queue[mid], top) <= 0) lo = mid + 1;
        else hi = mid;
      }
      queue.splice(lo, 0, top);
      continue;
    }
    if (used + top.s.tokens > budget) continue;
    used += top.s.tokens;
    chosen.push(top.s);
    for (const w of top.s.words.keys()) covered.add(w);
    for (const p of top.s.pairs) covered.add(p);
  }
  return chosen.sort((a, b) => a.order - b.order);
}

/**
 * Markdown lines: a bold date line whenever the day changes, then "- Speaker: sentences" for
 * each message's chosen sentences.
 */
export function renderDigest(chosen: readonly DigestSentence[]): string[] {
  const lines: string[] = [];
  let day: string | null = null;
  let group: number | null = null;
  for (const s of chosen) {
    if (s.day !== null && s.day !== day) {
      lines.push(`**${s.day}**`);
      day = s.day;
      group = null;
    }
    if (s.group === group) lines[lines.length - 1] += ` ${s.text}`;
    else lines.push(`- ${s.speaker}: ${s.text}`);
    group = s.group;
  }
  return lines;
}
