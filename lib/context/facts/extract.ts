// Atomic facts from the turns a compaction condenses or an archive keeps: one sentence each,
// with who it is about, what attribute it sets (when a pattern says so), and where and when
// it was said; its "last week" written absolutely. Deterministic, so the offline path stores
// the same facts as any other.
import { extractMustKeep, FACT_ANCHOR_KINDS, isPersonalStatement, messageSpeaker } from "@/lib/context/compaction/must-keep";
import { informativeWords, nameStems } from "@/lib/context/compaction/digest";
import { capText, normalizeWs, sentencesOf, splitCode } from "@/lib/context/compaction/prose";
import { engineTurns } from "@/lib/context/compaction/transcript";
import type { MustKeepItem, MustKeepKind, TranscriptTurn } from "@/lib/context/compaction/types";
import { utterancesOf } from "@/lib/context/compaction/utterances";
import { formatDay, resolveRelativeDates } from "@/lib/context/dates";
import { redactSecrets } from "@/lib/redact";
import { runAll, runSliced, type Steps } from "@/lib/context/yield";

export interface ExtractedFact {
  /** Who the fact is about: "user", "user's sister", or a lower-cased name. */
  subject: string;
  /** What it sets ("lives_in", "likes:sushi", "favorite color"), or null when no pattern says. */
  attribute: string | null;
  value: string | null;
  /**
   * The sentence as said (redacted, relative dates made absolute), for search and for the
   * memory block; a person a pasted log names opens it ("Nate (21 January 2022): …").
   */
  text: string;
  /** When it was said: the log line's timestamp, else when the message was stored; null when unknown. */
  saidAt: Date | null;
  /** Must-keep kinds the sentence holds: tags for search and filtering. */
  kinds: MustKeepKind[];
  turnSeq: number;
  fromSeq: number | null;
  throughSeq: number | null;
}

const FACT_CHARS = 300;
const MAX_WORDS = 60;
/** Informative words a fact with no attribute needs: a name, a thing, a place, a number… */
const MIN_WORDS = 2;
const isQuestion = (s: string) => /\?["')\]]?$/.test(s);

const NAME = "[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?(?:\\s[A-Z][a-z]+){0,2}";
const SUBJECT = `(I|[Ww]e|[Mm]y (?:[a-z]+ )?[a-z]+|${NAME})`;
const ATTRIBUTES: { attribute: string; re: RegExp }[] = [
  {
    attribute: "lives_in",
    re: new RegExp(`\\b${SUBJECT}(?:['’]m| am| are|['’]re| is|['’]s)?\\s(?:now\\s|just\\s|finally\\s)?(?:live|lives|living|lived|based|moved|moving|relocated|relocating)\\s(?:to|in)\\s(?:the\\s)?(${NAME})`),
  },
  {
    attribute: "works_at",
    re: new RegExp(`\\b${SUBJECT}(?:['’]m| am| is)?\\s(?:now\\s|just\\s)?(?:work|works|working|started working|got a job|joined)\\s(?:at|for)?\\s?(${NAME})`),
  },
  { attribute: "age", re: /\b(I|[Mm]y [a-z]+)(?:['’]m| am| is| turned| just turned)\s(\d{1,3})(?: years old)?\b/ },
];
// "my favorite color is green", "my budget is $2,000", "my flight is at 7am"
const MY_X_IS_RE = /\b[Mm]y ((?:(?:least )?favou?rite |new |current )?[a-z]+(?: [a-z]+)?) (?:is|are|was) (?:now |still )?((?:[^,.;!?]|[,.](?=\d)){1,60})/;
const TASTE_RE = /\bI (?:really |absolutely |still |also |actually )?(love|like|enjoy|adore|hate|dislike|can['’]t stand|do not like|don['’]t like) ([a-z][a-z -]{1,40}?)(?=[.,;!]|$| because| but| and| when| so)/;
const POSITIVE = new Set(["love", "like", "enjoy", "adore"]);

/** Normalized subject: "I" and "we" are the user; "my sister" is the user's sister; names lower-cased. */
export function subjectOf(raw: string): string {
  const s = raw.trim();
  if (/^(?:I|we)$/i.test(s)) return "user";
  const my = /^my (.+)$/i.exec(s);
  if (my) return `user's ${my[1].toLowerCase()}`;
  return s.toLowerCase();
}

// Lower-cased, punctuation dropped except inside numbers ("$4,500", "7.5").
const valueKey = (v: string) => normalizeWs(v.toLowerCase().replace(/[^\p{L}\p{N}$€£%.,:]+/gu, " ").replace(/[.,:]+(?!\d)/g, " "));

export interface FactShape {
  subject: string;
  attribute: string | null;
  value: string | null;
}

/**
 * Subject, attribute and value of one sentence: one shape per pattern that matches ("Tomasz
 * lives in Gdansk and my budget is $4,500" sets two attributes), or one plain shape.
 */
export function factShapes(sentence: string, anchors: readonly MustKeepItem[]): FactShape[] {
  const out: FactShape[] = [];
  for (const { attribute, re } of ATTRIBUTES) {
    const m = re.exec(sentence);
    if (m) out.push({ subject: subjectOf(m[1]), attribute, value: valueKey(m[2]) });
  }
  const taste = TASTE_RE.exec(sentence);
  if (taste) {
    const object = valueKey(taste[2]).replace(/^(?:the|a|an|to|my) /, "");
    out.push({ subject: "user", attribute: `likes:${object}`, value: POSITIVE.has(taste[1]) ? "yes" : "no" });
  }
  const my = MY_X_IS_RE.exec(sentence);
  if (my && !/^(?:name|plan|idea|question|point|problem|guess)$/.test(my[1])) {
    out.push({ subject: "user", attribute: my[1].replace(/favourite/, "favorite"), value: valueKey(my[2]) });
  }
  if (out.length > 0) return out;
  if (/\b(?:I|my|me|we|our)\b/i.test(sentence)) return [{ subject: "user", attribute: null, value: null }];
  const person = anchors.find((a) => a.kind === "person");
  return [{ subject: person ? person.text.toLowerCase() : "user", attribute: null, value: null }];
}

const FACT_KINDS: readonly MustKeepKind[] = ["decision", ...FACT_ANCHOR_KINDS];

// Words a sentence has; a line without any is a heading, a list of names or a table cell.
const FUNCTION_WORD_RE = /\b(?:the|a|an|is|are|was|were|be|been|am|to|of|in|on|at|for|with|and|but|I|I['’]m|I['’]ve|my|me|we|our|he|she|it|they|his|her|their|have|has|had|will|did|do)\b/i;

/** Not a statement: a table row's fragment, a run of words with no sentence in it. */
function isJunk(sentence: string): boolean {
  if ((sentence.match(/\|/g) ?? []).length >= 2 || /^\s*[|+-]{3,}/.test(sentence)) return true;
  return !FUNCTION_WORD_RE.test(sentence);
}

/** "I" and "my" said by a person a log names are that person, not the user. */
function speakerSubject(shape: FactShape, name: string | null): FactShape {
  if (!name) return shape;
  const who = name.toLowerCase();
  if (shape.subject === "user") return { ...shape, subject: who };
  if (shape.subject.startsWith("user's ")) return { ...shape, subject: `${who}'s ${shape.subject.slice("user's ".length)}` };
  return shape;
}

/**
 * The facts of the turns: each sentence the user (or a person a pasted log names) said that
 * holds a name, place, date, amount, plan, preference, event or decision, and the decisions
 * anyone stated. Questions, code, tool output, table rows and word runs are not facts.
 * Ordered as said; repeats within the turns are kept (consolidation counts them).
 */
export function extractFacts(turns: readonly TranscriptTurn[]): ExtractedFact[] {
  return runAll(factSteps(turns));
}

/** extractFacts with the event loop let in between messages (a compaction of thousands). */
export function extractFactsSliced(turns: readonly TranscriptTurn[]): Promise<ExtractedFact[]> {
  return runSliced(factSteps(turns));
}

function* factSteps(turns: readonly TranscriptTurn[]): Steps<ExtractedFact[]> {
  const out: ExtractedFact[] = [];
  for (const turn of engineTurns(turns)) {
    for (const [i, m] of turn.messages.entries()) {
      yield;
      const speaker = messageSpeaker(m, i);
      if (m.role === "user" && speaker !== "user") continue; // tool results
      const items = extractMustKeep([{ turnSeq: turn.turnSeq, messages: [{ role: m.role, text: m.text, at: m.at }] }]);
      const relevant = items.filter((it) => FACT_KINDS.includes(it.kind) || isPersonalStatement(it.kind));
      if (relevant.length === 0) continue;
      for (const u of utterancesOf({ ...m, text: splitCode(m.text).prose })) {
        for (const s of sentencesOf(u.text)) {
          const plain = capText(normalizeWs(s.text), FACT_CHARS);
          const said = redactSecrets(u.at ? resolveRelativeDates(plain, u.at) : plain);
          const words = said.split(" ").length;
          if (isQuestion(plain) || words < 3 || words > MAX_WORDS || said.includes("`") || isJunk(said)) continue;
          const lower = said.toLowerCase();
          const held = relevant.filter((it) => lower.includes(normalizeWs(it.text).toLowerCase()));
          // The assistant's sentences count only as decisions; a person's as any fact.
          if (speaker !== "user" ? !held.some((h) => h.kind === "decision") : held.length === 0) continue;
          const kinds = [...new Set(held.map((h) => h.kind))];
          const name = u.named ? u.speaker : null;
          const text = name ? `${name}${u.at ? ` (${formatDay(u.at)})` : ""}: ${said}` : said;
          const shapes = factShapes(said, held);
          // "I'll definitely check it out." is a plan with nothing in it to remember.
          if (shapes.every((x) => x.attribute === null) && informativeWords(plain, nameStems(name ? [name] : [])) < MIN_WORDS) continue;
          for (const shape of shapes) {
            out.push({ ...speakerSubject(shape, name), text, saidAt: u.at, kinds, turnSeq: turn.turnSeq, fromSeq: m.seq ?? null, throughSeq: m.seq ?? null });
          }
        }
      }
    }
  }
  return out;
}
