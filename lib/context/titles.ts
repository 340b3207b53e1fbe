// A session title from its first message, when no model can write one (offline, or Haiku
// failed). Pure. It names what the message asks: greetings, slash commands and pasted logs
// or code say nothing about that, so they are skipped.
import { transcriptPrefix } from "./dates";
import { firstSentenceOf, splitCode } from "./compaction/prose";

const TITLE_MAX = 60;
const FALLBACK = "New session";

// A sentence made only of these is a greeting or a courtesy, not the subject.
const CHATTER = new Set(
  ("hi hello hey hiya heya yo there claude thanks thank you cheers please ok okay good morning afternoon evening day in advance for your help a lot so much very " +
    "dear all team folks everyone quick question")
    .split(" "),
);
const chatterOnly = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).every((w) => CHATTER.has(w));

/**
 * A line of a pasted log or trace rather than prose: a timestamp or level up front, a stack
 * frame, or more symbols and digits than letters.
 */
function logLine(line: string): boolean {
  const t = line.trim();
  if (/^(?:\d{4}-\d\d-\d\d[ T]\d|\d\d:\d\d:\d\d|\[?(?:TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL|CRITICAL)\]?[\s:])/i.test(t)) return true;
  if (/^at\s+\S+.*[(:]\d+/.test(t) || /^File ".*", line \d+/.test(t) || /^\s*(?:Traceback|Caused by:)/.test(t)) return true;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  return t.length >= 20 && letters < t.length * 0.5;
}

/** The message's prose lines worth a title: no slash commands, log lines or chat-log prefixes. */
function proseLines(text: string): string[] {
  return splitCode(text)
    .prose.split("\n")
    .filter((l) => !/^\s*\/[a-z][\w-]*(?:\s|$)/i.test(l) && !logLine(l))
    .map((l) => l.slice(transcriptPrefix(l)?.length ?? 0).trim())
    .filter((l) => l !== "");
}

/**
 * How much of each end of a long message a title is looked for in: the ask sits before or
 * after a paste, and reading every line of a 1 MB paste took seconds.
 */
const TITLE_SCAN_CHARS = 16_000;

export function heuristicTitle(firstUserText: string): string {
  const scanned =
    firstUserText.length > 2 * TITLE_SCAN_CHARS ? `${firstUserText.slice(0, TITLE_SCAN_CHARS)}\n${firstUserText.slice(-TITLE_SCAN_CHARS)}` : firstUserText;
  const lines = proseLines(scanned);
  // A long paste is usually followed (or preceded) by the ask: the first prose sentence that
  // is not a greeting, wherever it is.
  let sentence = "";
  for (const line of lines) {
    let rest = line;
    while (rest && !sentence) {
      const first = firstSentenceOf(rest)?.text ?? rest;
      if (!chatterOnly(first)) sentence = first;
      rest = rest.slice(rest.indexOf(first) + first.length).trim();
      if (first === rest) break;
    }
    if (sentence) break;
  }
  sentence = sentence.replace(/^(?:(?:hi|hello|hey)(?: there)?(?:,?\s*claude)?[,!.:]?\s+)/i, "").replace(/[.!?:;,]+$/, "").trim();
  if (!sentence) return FALLBACK;
  if (sentence.length <= TITLE_MAX) return sentence[0].toUpperCase() + sentence.slice(1);
  const cut = sentence.slice(0, TITLE_MAX);
  const atWord = cut.lastIndexOf(" ") > TITLE_MAX / 2 ? cut.slice(0, cut.lastIndexOf(" ")) : cut;
  return `${atWord[0].toUpperCase()}${atWord.slice(1)}…`;
}

const NAME_PREFIX: Partial<Record<string, string>> = {
  error_fix: "Fixed",
  task_complete: "Done",
  decision: "Decided",
  pre_compaction: "Before condensing",
};

/**
 * What an automatic checkpoint is called: what its turn was about (the last thing the user
 * asked), led by what happened in it ("Fixed: …", "Done: …") when that is known.
 */
export function checkpointName(label: string | null, tags: readonly string[], lastUserText: string | null): string {
  if (label) return label;
  const topic = lastUserText ? heuristicTitle(lastUserText) : FALLBACK;
  const prefix = tags.map((t) => NAME_PREFIX[t]).find((p) => p !== undefined);
  if (topic === FALLBACK) return prefix ?? (tags.includes("code") ? "Code written" : "Automatic checkpoint");
  return prefix ? `${prefix}: ${topic}` : topic;
}
