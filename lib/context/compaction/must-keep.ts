// Must-keep items: what a summary of the condensed turns may not lose, found without the LLM
// so that retention can be checked rather than trusted.
import { attachedFiles, codeBlocks, configs, filePaths, identifiers, urls, withoutUrls } from "./extract-references";
import { dateTimes, people, personalStatements, places, quantities, withoutInlineCode } from "./extract-conversation";
import { decisions, errors, pendingTasks, type Found } from "./extract-statements";
import { dateMentions, resolveRelativeDates } from "@/lib/context/dates";
import { sentencesOf, splitCode, type Located } from "./prose";
import { engineTurns } from "./transcript";
import { MUST_KEEP_KINDS, type MustKeepItem, type MustKeepKind, type TranscriptTurn } from "./types";
import { dateAt, isToolOutput, utterancesOf, withoutPrefixes } from "./utterances";
import { runAll, runSliced, type Steps } from "@/lib/context/yield";

const RANK: Record<MustKeepKind, number> = Object.fromEntries(MUST_KEEP_KINDS.map((k, i) => [k, i])) as Record<MustKeepKind, number>;

/** Sentence-like kinds may be re-cased by a summarizer at a sentence start; code and paths may not. */
export function caseInsensitive(kind: MustKeepKind): boolean {
  return kind === "decision" || kind === "pending_task" || kind === "date_time" || isPersonalStatement(kind);
}

/** The user's own plans, tastes and events: sentences a summarizer retells in its own words. */
export function isPersonalStatement(kind: MustKeepKind): boolean {
  return kind === "commitment" || kind === "preference" || kind === "event";
}

/** Atomic facts of a conversation: a name, a place, a date or an amount, matched as written. */
export const FACT_ANCHOR_KINDS: readonly MustKeepKind[] = ["date_time", "person", "place", "quantity"];

/**
 * Who wrote a text: the user (whose plans and tastes are the conversation's facts), anyone
 * else (the assistant, tool output), or a previous summary (which retells the user).
 */
export type Speaker = "user" | "other" | "summary";

// Offsets are made global by giving each source a window this large: first appearance then
// sorts by source (previous summary, turns in order, messages in order) and offset within it.
const SOURCE_SPAN = 1e9;

/** Names, places, dates and amounts in prose (code and inline code excluded). */
export function factAnchors(prose: string): Found[] {
  const plain = withoutInlineCode(prose);
  const dates = dateTimes(plain);
  // "two weeks" inside "two weeks ago" is the date, not a second, separate amount.
  const inDate = (q: Found) => dates.some((d) => q.index >= d.index && q.index + q.text.length <= d.index + d.text.length);
  return [...dates, ...people(plain), ...places(plain), ...quantities(plain).filter((q) => !inDate(q))];
}

/** Statements said with a date: their "last week" is written absolutely too. */
const DATED_KINDS: readonly MustKeepKind[] = ["decision", "commitment", "preference", "event", "pending_task"];

function extractFrom(raw: string, base: number, speaker: Speaker, said: (index: number) => Date | null = () => null): Found[] {
  // A pasted log's "[date] Name: " prefixes say who and when, not what: they are no item's text.
  const text = withoutPrefixes(raw, speaker === "summary");
  const { prose, blocks } = splitCode(text);
  // Several extractors read sentences; split once, and only if one of them needs it.
  let cached: Located[] | null = null;
  const sentences = () => (cached ??= sentencesOf(prose));
  const anchors = factAnchors(prose);
  const found = [
    ...anchors,
    ...(speaker === "other" ? [] : personalStatements(prose, sentences, (s) => anchors.some((a) => a.index >= s.index && a.index < s.index + s.text.length))),
    ...decisions(prose, sentences),
    ...errors(prose, blocks, sentences),
    ...pendingTasks(text, prose, sentences),
    ...filePaths(withoutUrls(text)),
    ...attachedFiles(raw),
    ...configs(text),
    ...urls(text),
    ...codeBlocks(blocks),
    ...identifiers(prose, blocks),
  ];
  for (const f of found) {
    const at = said(f.index);
    if (at && DATED_KINDS.includes(f.kind)) f.text = resolveRelativeDates(f.text, at);
    else if (at && f.kind === "date_time") f.text = absoluteDate(f.text, at);
    f.index += base;
  }
  return found;
}

/** "last week" said on 21 January 2022 must survive as "the week before 21 January 2022". */
function absoluteDate(text: string, at: Date): string {
  const [m] = dateMentions(text, at);
  return m && m.relative && m.text.length >= text.length - 3 ? m.absolute : text;
}

/**
 * Items from the condensed turns, and from the previous summary (which the new summary
 * replaces, so what it held must survive too). Deduplicated: the same text under two kinds
 * keeps the higher-ranked kind, and an item contained in a longer item of the same kind is
 * dropped (wherever the longer one is, the shorter one is too). Ordered by MUST_KEEP_KINDS
 * rank, then first appearance.
 */
export function extractMustKeep(turns: readonly TranscriptTurn[], previousSummary?: string | null): MustKeepItem[] {
  return runAll(mustKeepSteps(turns, previousSummary));
}

/** extractMustKeep with the event loop let in between messages: thousands of them are seconds of work. */
export function extractMustKeepSliced(turns: readonly TranscriptTurn[], previousSummary?: string | null): Promise<MustKeepItem[]> {
  return runSliced(mustKeepSteps(turns, previousSummary));
}

function* mustKeepSteps(turns: readonly TranscriptTurn[], previousSummary?: string | null): Steps<MustKeepItem[]> {
  const found: Found[] = [];
  let source = 0;
  if (previousSummary) found.push(...extractFrom(previousSummary, source++ * SOURCE_SPAN, "summary"));
  for (const turn of engineTurns(turns)) {
    for (const [i, m] of turn.messages.entries()) {
      yield;
      found.push(...extractFrom(m.text, source++ * SOURCE_SPAN, messageSpeaker(m, i), dateAt(m)));
    }
  }

  // Same text, several kinds: the best-ranked kind and the earliest appearance win.
  const byText = new Map<string, Found>();
  for (const f of found) {
    if (f.text === "") continue;
    const seen = byText.get(f.text);
    if (!seen) byText.set(f.text, f);
    else byText.set(f.text, { kind: RANK[f.kind] < RANK[seen.kind] ? f.kind : seen.kind, text: f.text, index: Math.min(f.index, seen.index) });
  }

  const kept: Found[] = [];
  for (const kind of MUST_KEEP_KINDS) {
    yield;
    const ofKind = [...byText.values()].filter((f) => f.kind === kind);
    kept.push(...dropContained(ofKind, caseInsensitive(kind)).sort((a, b) => a.index - b.index));
  }
  return kept.map((f) => ({ kind: f.kind, text: f.text }));
}

/** Inside a turn only the first user message is the user speaking; later ones carry tool results. */
export function speakerOf(role: "user" | "assistant", index: number): Speaker {
  return role === "user" && index === 0 ? "user" : "other";
}

/**
 * Whose plans and tastes a message states: the user's, or those of a person a pasted log
 * names ("[8 May 2023] Ann: I moved to Porto"), whichever role stored it; tool output and
 * the assistant's own words are "other".
 */
export function messageSpeaker(m: TranscriptTurn["messages"][number], index: number): Speaker {
  if (isToolOutput(m, index)) return "other";
  if (m.role === "user") return "user";
  return utterancesOf(m).some((u) => u.named) ? "user" : "other";
}

/** Items whose text occurs inside a longer item of the same kind are redundant. */
function dropContained(items: Found[], ignoreCase: boolean): Found[] {
  const key = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const longestFirst = [...items].sort((a, b) => b.text.length - a.text.length);
  const kept: Found[] = [];
  const keptKeys: string[] = [];
  for (const item of longestFirst) {
    const k = key(item.text);
    if (keptKeys.some((longer) => longer.includes(k))) continue;
    kept.push(item);
    keptKeys.push(k);
  }
  return kept;
}
