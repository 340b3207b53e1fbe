// Extractors for statements: decisions, errors and pending tasks, found as whole sentences
// or lines. Each is tuned for precision: an item that is not really a decision or an error
// costs summary budget and, when the summarizer rightly drops it, shows up as a false loss.
import { capText, linesOf, normalizeWs, type CodeBlock, type Located } from "./prose";
import type { MustKeepKind } from "./types";

export interface Found {
  kind: MustKeepKind;
  text: string;
  /** Offset in the source text, for first-appearance order. */
  index: number;
}

const SENTENCE_CHARS = 300;

const isQuestion = (s: string) => /\?["')\]]?$/.test(s);
export const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

// ---------------------------------------------------------------- decision

// A change of mind ("changed my mind", "called off", "not … anymore") is a decision too: the
// latest word on what was planned.
const DECISION_RE =
  /\b(?:decided|decision:|we(?:['’]ll| will| are going to| shall) (?:use|go with|keep|switch to|adopt|stick with|move to)|let['’]s (?:go with|use|stick with|keep)|going with|chosen approach|(?:we|i) chose|chose to|agreed|settled on|opted (?:for|to)|instead of|rejected|ruled out|changed (?:my|our|his|her|their) minds?|change of plans?|no longer|called (?:it )?off|cancell?ed|anymore)(?![\w])/i;

/** Whole sentences stating a choice; questions ("should we use X?") are not decisions yet. */
export function decisions(prose: string, sentences: () => readonly Located[]): Found[] {
  if (!DECISION_RE.test(prose)) return [];
  return sentences()
    .filter((s) => DECISION_RE.test(s.text) && !isQuestion(s.text) && wordCount(s.text) >= 4)
    .map((s) => ({ kind: "decision", text: capText(normalizeWs(s.text), SENTENCE_CHARS), index: s.index }));
}

// ---------------------------------------------------------------- error

// Anywhere in a line: markers no ordinary sentence carries.
const ERROR_ANYWHERE = [
  /\b[A-Z][A-Za-z]*(?:Error|Exception)\b/,
  /\b(?:Error|ERROR|error|FATAL|fatal|panic|Fatal error):\s/,
  /\bTraceback \(most recent call last\)/,
  /(?<!\b0 )\bfailed\b/i,
  /\bERR_[A-Z0-9_]+\b|\bnpm ERR!/,
  /\b(?:E\d{3,5}|TS\d{4,5})\b/,
  /\bE(?:NOENT|ACCES|PERM|EXIST|CONNREFUSED|CONNRESET|ADDRINUSE|TIMEDOUT|PIPE|NOTFOUND|AI_AGAIN)\b/,
  /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?: code)?|returned|returns|responded with|got an?|got)\s*:?\s*[45]\d\d\b/i,
  /\b[45]\d\d (?:Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Conflict|Gone|Payload Too Large|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b/i,
  /\bUncaught\b|\bSegmentation fault\b|\bunhandled (?:promise )?rejection\b/i,
];
// Inside code a class name like RateLimitError is usually code handling an error, not an
// error that happened: there the exception-style markers only count at the start of a line.
const ERROR_LINE_START = /^(?:[A-Z][A-Za-z]*(?:Error|Exception)\b|Error\b|ERROR\b|Traceback\b|FATAL\b|panic:|fatal:|error(?:\[\w+\])?:|Uncaught\b|FAIL\b)/;
const ERROR_IN_CODE = ERROR_ANYWHERE.slice(3);
const ERROR_HANDLING_CODE = /\b(?:throw|raise|catch|except|console\.(?:error|warn|log)|logger\.|log\.(?:error|warn))\b/;

/**
 * Error messages: in code (logs and traces are pasted as code) the line; in prose the
 * sentence, since a prose line is often a whole paragraph around the message.
 */
export function errors(prose: string, blocks: readonly CodeBlock[], sentences: () => readonly Located[]): Found[] {
  const out: Found[] = [];
  // Most messages hold no marker at all; testing the whole prose first skips their sentences.
  const active = ERROR_ANYWHERE.filter((re) => re.test(prose));
  for (const s of active.length > 0 ? sentences() : []) {
    if (active.some((re) => re.test(s.text))) out.push({ kind: "error", text: capText(normalizeWs(s.text), SENTENCE_CHARS), index: s.index });
  }
  for (const b of blocks) {
    for (const l of linesOf(b.text, b.index).slice(1)) {
      const t = l.text.trim();
      if (t.startsWith("```") || ERROR_HANDLING_CODE.test(t)) continue;
      if (ERROR_LINE_START.test(t) || ERROR_IN_CODE.some((re) => re.test(t))) {
        out.push({ kind: "error", text: capText(normalizeWs(t), SENTENCE_CHARS), index: l.index });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- pending_task

const TODO_RE = /\b(?:TODO|FIXME)\b.*$/;
const PENDING_RE =
  /\b(?:next steps?\b|still (?:need|needs|have|has) to|remaining:|left to do|yet to be|to-?do:|pending:|follow[- ]up:|not done yet|outstanding:)/i;
const CHECKBOX_RE = /^\s*(?:[-*+]\s+)?\[ \]\s+(.+)$/;

/** TODO/FIXME (also in code), sentences naming work still to do, and unchecked boxes. */
export function pendingTasks(text: string, prose: string, sentences: () => readonly Located[]): Found[] {
  const out: Found[] = [];
  for (const l of /\b(?:TODO|FIXME)\b/.test(text) ? linesOf(text) : []) {
    const m = TODO_RE.exec(l.text);
    if (m) {
      const t = normalizeWs(m[0].replace(/\s*(?:\*\/|-->)\s*$/, ""));
      if (wordCount(t) >= 2) out.push({ kind: "pending_task", text: capText(t, SENTENCE_CHARS), index: l.index + m.index });
    }
  }
  for (const l of prose.includes("[ ]") ? linesOf(prose) : []) {
    const m = CHECKBOX_RE.exec(l.text);
    if (m) out.push({ kind: "pending_task", text: capText(normalizeWs(m[1]), SENTENCE_CHARS), index: l.index });
  }
  for (const s of PENDING_RE.test(prose) ? sentences() : []) {
    if (PENDING_RE.test(s.text) && !isQuestion(s.text) && wordCount(s.text) >= 3) {
      out.push({ kind: "pending_task", text: capText(normalizeWs(s.text), SENTENCE_CHARS), index: s.index });
    }
  }
  return out;
}
