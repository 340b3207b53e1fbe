// The fallback summary: built from the must-keep items and a dated digest of what was said
// (./digest.ts), no LLM involved, in the same sections the summarizer writes. Deterministic,
// so a failed or offline summarizer still yields a compaction that keeps what matters.
import { formatDay, parseTimestamp, resolveRelativeDates, transcriptPrefix } from "@/lib/context/dates";
import { digestSentences, isChatter, nameStems, renderDigest, selectSentences, type CarriedLine, type DigestSentence } from "./digest";
import { caseInsensitive, FACT_ANCHOR_KINDS, isPersonalStatement } from "./must-keep";
import { capText, normalizeWs, sentencesOf, splitCode } from "./prose";
import { parseSections } from "./sections";
import { engineTurns } from "./transcript";
import { SUMMARY_HEADINGS } from "./templates";
import type { CountTokens, MustKeepItem, MustKeepKind, TranscriptTurn } from "./types";
import { isToolOutput, utterancesOf } from "./utterances";
import { KIND_LABELS } from "./verify";

type Section = 0 | 1 | 2 | 3 | 4 | 5;
const SESSION: Section = 0;
const DECISIONS: Section = 1;
const CODE: Section = 2;
const FILES: Section = 3;
const PENDING: Section = 4;
const CONTEXT: Section = 5;

const KIND_SECTION: Record<MustKeepKind, Section> = {
  decision: DECISIONS,
  error: CONTEXT,
  pending_task: PENDING,
  commitment: PENDING,
  preference: CONTEXT,
  event: CONTEXT,
  file_path: FILES,
  config: CONTEXT,
  url: CONTEXT,
  date_time: CONTEXT,
  person: CONTEXT,
  place: CONTEXT,
  quantity: CONTEXT,
  code_block: CODE,
  identifier: CODE,
};

// What survives when the budget is short, highest first. Decisions, errors and pending work
// lead (as in verification); what people said goes into the dated digest instead.
const KIND_PRIORITY: Record<MustKeepKind, number> = {
  decision: 92,
  error: 88,
  pending_task: 85,
  commitment: 86,
  preference: 83,
  event: 82,
  file_path: 80,
  config: 75,
  url: 72,
  date_time: 58,
  person: 57,
  place: 57,
  quantity: 56,
  code_block: 65,
  identifier: 50,
};
/** Inline lines, one per kind, in the section they belong to. */
const INLINE_LABEL: Partial<Record<MustKeepKind, string>> = {
  identifier: "Identifiers",
  person: "People",
  place: "Places",
  date_time: "Dates and times",
  quantity: "Amounts",
};
const SESSION_LINE_PRIORITY = 100;
const PREVIOUS_SECTION_PRIORITY: Record<Section, number> = { 0: 95, 1: 91, 2: 64, 3: 79, 4: 84, 5: 70 };
/**
 * The conversation's digest gets at least this share of the budget when there is anything
 * to digest: code and decisions first, but not so first that nobody's words survive.
 */
const DIGEST_SHARE = 0.4;
/**
 * The digest of new turns is at most this share of them, about a quarter: a summary that
 * keeps nearly every sentence compresses nothing, however large the budget. (0.24, not 0.25:
 * short sessions then shrink at least as much as they did with the turn openers before.)
 */
export const DIGEST_MAX_SHARE = 0.24;
/** A sentence this long found inside a statement item is that statement. */
const MIN_MATCH_CHARS = 20;
/** A sentence holding a plan, taste or event (a must-keep statement) is worth this many rare words more. */
const STATEMENT_BONUS = 3;

const OPENER_CHARS = 200;
const EMPTY = "(none)";

interface Unit {
  section: Section;
  text: string;
  priority: number;
  order: number;
  /** Identifiers (and names, places, dates, amounts) share one labelled line instead of a bullet each. */
  inline: string | null;
  /** Whitespace-normalized text (and lower-cased), for matching items against carried lines. */
  norm: string;
  key: string;
}

/**
 * A summary of `turns` (after `previousSummary`) within `maxTokens`: the previous summary's
 * content carried forward (per section when it has the PRD's headings, otherwise under
 * Important Context), a session line, the development items in their sections, and a dated
 * digest of what was said (previous digest lines compete with the new sentences). Content
 * goes in whole (a code block is never cut), so every item is in the result whenever they
 * all fit; plans, tastes and events are items the digest prefers.
 */
export function extractiveSummary(input: {
  previousSummary: string | null;
  turns: readonly TranscriptTurn[];
  items: readonly MustKeepItem[];
  maxTokens: number;
  countTokens: CountTokens;
  /**
   * The digest's cap as a share of the new turns' tokens (DIGEST_MAX_SHARE by default); 1
   * where the summary need not shrink anything, only fit maxTokens (an archive's memory).
   */
  digestShare?: number;
}): string {
  const units: Unit[] = [];
  const add = (section: Section, text: string, priority: number, inline: string | null = null): Unit => {
    const norm = normalizeWs(text);
    const unit = { section, text, priority, order: units.length, inline, norm, key: norm.toLowerCase() };
    units.push(unit);
    return unit;
  };

  const previous = carriedUnits(input.previousSummary);
  for (const p of previous.units) add(p.section, p.text, PREVIOUS_SECTION_PRIORITY[p.section]);
  const carried = units.slice();

  const turns = engineTurns(input.turns);
  const line = sessionLine(turns);
  if (line) add(SESSION, line, SESSION_LINE_PRIORITY);

  const statements: string[] = [];
  for (const item of input.items) {
    const priority = KIND_PRIORITY[item.kind];
    // Already in a carried line: that line now matters as much as the item.
    const needle = normalizeWs(item.text);
    const holder = carried.find((u) => (caseInsensitive(item.kind) ? u.key.includes(needle.toLowerCase()) : u.norm.includes(needle)));
    if (holder) {
      holder.priority = Math.max(holder.priority, priority);
      continue;
    }
    if (item.kind === "code_block") add(CODE, item.text, priority);
    else if (item.kind === "identifier") add(CODE, `\`${item.text}\``, priority, INLINE_LABEL.identifier);
    else if (FACT_ANCHOR_KINDS.includes(item.kind)) add(CONTEXT, item.text, priority, INLINE_LABEL[item.kind]);
    // Said by someone at some time: the digest keeps it with who and when.
    else if (isPersonalStatement(item.kind)) statements.push(needle.toLowerCase());
    else if (!item.text.includes("```")) add(KIND_SECTION[item.kind], `- ${item.text}`, priority);
  }

  const sentences = digestSentences(turns, input.countTokens, previous.digest);
  for (const s of sentences) {
    const key = s.text.toLowerCase();
    // Either way round: a carried item may hold the sentence after a label ("Most recently: …").
    if (statements.some((st) => key.includes(st) || (key.length >= MIN_MATCH_CHARS && st.includes(key)))) s.bonus = STATEMENT_BONUS;
  }
  const said = input.turns.reduce((n, t) => n + t.messages.reduce((k, m) => k + input.countTokens(m.text), 0), 0);
  const carriedTokens = previous.digest.reduce((n, c) => n + input.countTokens(c.text), 0);
  // The previous digest was condensed already: it keeps its size while the budget allows.
  const digestMax = Math.floor((input.digestShare ?? DIGEST_MAX_SHARE) * said) + carriedTokens;
  return fit(units, sentences, digestMax, input.maxTokens, input.countTokens);
}

function render(units: readonly Unit[], digest: readonly string[] = []): string {
  const bySection: string[][] = SUMMARY_HEADINGS.map(() => []);
  const inline: Map<string, string[]>[] = SUMMARY_HEADINGS.map(() => new Map());
  for (const u of [...units].sort((a, b) => a.order - b.order)) {
    if (u.inline === null) bySection[u.section].push(u.text);
    else inline[u.section].set(u.inline, [...(inline[u.section].get(u.inline) ?? []), u.text]);
  }
  bySection[CONTEXT].push(...digest);
  return SUMMARY_HEADINGS.map((h, i) => {
    const body = [...bySection[i]];
    for (const [label, texts] of inline[i]) body.push(`${label}: ${texts.join(", ")}`);
    return `### ${h}\n${body.length > 0 ? body.join("\n") : EMPTY}`;
  }).join("\n\n");
}

/** Greedy by priority: `units` added to `chosen` while they fit in `maxTokens`. */
function choose(units: readonly Unit[], chosen: Unit[], digest: readonly string[], maxTokens: number, countTokens: CountTokens): Unit[] {
  let used = countTokens(render(chosen, digest));
  const taken = new Set(chosen);
  const byValue = units.filter((u) => !taken.has(u)).sort((a, b) => b.priority - a.priority || a.order - b.order);
  const digestText = digest.join("\n");
  for (const u of byValue) {
    // A name or date already inside a chosen sentence needs no line of its own.
    if (u.inline !== null && u.section === CONTEXT && (chosen.some((c) => c.norm.includes(u.norm)) || digestText.includes(u.norm))) continue;
    const cost = countTokens(u.inline ? `${u.text}, ` : `${u.text}\n`);
    if (used + cost > maxTokens) continue;
    used += cost;
    chosen.push(u);
  }
  return chosen;
}

/**
 * The development items first (within 1 − DIGEST_SHARE of the budget when there is a
 * conversation to digest), then the digest in what is left (at most `digestMax`), then any
 * item that still fits;
 * trimmed from the least valuable end if the exact count disagrees.
 */
function fit(units: Unit[], sentences: readonly DigestSentence[], digestMax: number, maxTokens: number, countTokens: CountTokens): string {
  if (countTokens(render([])) > maxTokens) return headingsWithin(maxTokens, countTokens);
  const coreBudget = sentences.length > 0 ? Math.floor(maxTokens * (1 - DIGEST_SHARE)) : maxTokens;
  // Names and dates wait for the digest: most of them will be inside its sentences. The
  // session line goes first whatever the share: it says what the rest is.
  const anchors = new Set(units.filter((u) => u.inline !== null && u.section === CONTEXT));
  const heads = choose(units.filter((u) => u.priority >= SESSION_LINE_PRIORITY), [], [], maxTokens, countTokens);
  const core = choose(units.filter((u) => !anchors.has(u)), heads, [], coreBudget, countTokens);
  let digest: string[] = [];
  let room = maxTokens - countTokens(render(core));
  // Plans, tastes and events are items: they go in whenever they fit, over `digestMax` if need be.
  const statements = sentences.filter((s) => s.bonus > 0);
  // Date lines and speakers cost tokens the selection does not see: shrink and choose again.
  for (let attempt = 0; attempt < 4 && room > 0; attempt++) {
    const must = selectSentences(statements, room);
    const mustTokens = must.reduce((t, s) => t + s.tokens, 0);
    digest = renderDigest(selectSentences(sentences, Math.min(room, Math.max(digestMax, mustTokens)), must));
    const over = countTokens(render(core, digest)) - maxTokens;
    if (over <= 0) break;
    room -= over + Math.ceil(room * 0.02);
    digest = [];
  }
  const chosen = choose(units, core, digest, maxTokens, countTokens);
  let text = render(chosen, digest);
  while (countTokens(text) > maxTokens && (digest.length > 0 || chosen.length > 0)) {
    if (digest.length > 0) digest.pop();
    else chosen.pop();
    text = render(chosen, digest);
  }
  return text;
}

function headingsWithin(maxTokens: number, countTokens: CountTokens): string {
  let out = "";
  for (const h of SUMMARY_HEADINGS) {
    const next = out === "" ? `### ${h}` : `${out}\n### ${h}`;
    if (countTokens(next) > maxTokens) break;
    out = next;
  }
  return out;
}

/** "Turns 2–9 condensed (8 turns), said 21 January 2022 – 3 March 2022. Started with: …" */
function sessionLine(turns: readonly TranscriptTurn[]): string | null {
  if (turns.length === 0) return null;
  const first = turns[0].turnSeq;
  const last = turns[turns.length - 1].turnSeq;
  const range = first === last ? `Turn ${first}` : `Turns ${first}–${last}`;
  const days = turns.flatMap((t) => t.messages.flatMap((m) => utterancesOf(m).map((u) => u.at))).filter((d): d is Date => d !== null);
  const span = days.length === 0 ? "" : formatDay(days[0]) === formatDay(days[days.length - 1]) ? `, said ${formatDay(days[0])}` : `, said ${formatDay(days[0])} – ${formatDay(days[days.length - 1])}`;
  const parts = [`${range} condensed (${turns.length} turn${turns.length === 1 ? "" : "s"})${span}.`];
  // What it started with says what the session is about; what came later is in the digest.
  const speakers = nameStems(turns.flatMap((t) => t.messages.flatMap((m) => utterancesOf(m).map((u) => u.speaker))));
  const opener = turns.map((t) => firstUserSentence(t, speakers)).find((s) => s !== null);
  if (opener) parts.push(`Started with: ${opener}`);
  return parts.join(" ");
}

/** The first sentence of the turn's opening message that says something (not a greeting). */
function firstUserSentence(turn: TranscriptTurn, speakers: ReadonlySet<string>): string | null {
  const opening = turn.messages.find((m, i) => !isToolOutput(m, i));
  if (!opening) return null;
  for (const u of utterancesOf({ ...opening, text: splitCode(opening.text).prose })) {
    for (const s of sentencesOf(u.text)) {
      const plain = normalizeWs(s.text);
      const text = capText(u.at ? resolveRelativeDates(plain, u.at) : plain, OPENER_CHARS);
      if (!text.includes("```") && !isChatter(text, speakers)) return text;
    }
  }
  return null;
}

const LABEL_SECTION = new Map<string, Section>(
  (Object.entries(KIND_LABELS) as [MustKeepKind, string][]).map(([kind, label]) => [label.toLowerCase(), KIND_SECTION[kind]]),
);

/**
 * The previous summary as carried lines. Sections with the PRD's headings keep their place;
 * a "Preserved details" section is sorted back into place by its kind labels; anything else
 * goes under Important Context. Fenced code stays one unit; stray fence lines and "(none)"
 * placeholders are dropped, so the result never holds a half-open fence.
 */
function carriedUnits(previous: string | null): { units: { section: Section; text: string }[]; digest: CarriedLine[] } {
  const digest: CarriedLine[] = [];
  if (!previous || previous.trim() === "") return { units: [], digest };
  const out: { section: Section; text: string }[] = [];
  let day: string | null = null;
  for (const s of parseSections(previous)) {
    const idx = SUMMARY_HEADINGS.findIndex((h) => h.toLowerCase() === s.heading.toLowerCase());
    let section: Section = idx >= 0 ? (idx as Section) : CONTEXT;
    const { prose, blocks } = splitCode(s.body);
    // Walk prose lines and blocks in textual order.
    const pieces: { index: number; text: string; code: boolean }[] = blocks.map((b) => ({ index: b.index, text: b.text, code: true }));
    let at = 0;
    for (const l of prose.split("\n")) {
      if (l.trim() !== "") pieces.push({ index: at, text: l.trim(), code: false });
      at += l.length + 1;
    }
    pieces.sort((a, b) => a.index - b.index);
    for (const p of pieces) {
      if (p.code) {
        out.push({ section: idx >= 0 ? section : CODE, text: p.text });
        continue;
      }
      const label = /^\*\*(.+?)\*\*:?$/.exec(p.text);
      if (label && idx < 0 && LABEL_SECTION.has(label[1].toLowerCase())) {
        section = LABEL_SECTION.get(label[1].toLowerCase()) as Section;
        continue;
      }
      if (p.text === EMPTY || p.text.startsWith("```")) continue;
      // The previous digest's lines compete with the new sentences rather than outrank them.
      if (section === CONTEXT) {
        const dated = label && parseTimestamp(label[1]);
        if (dated) {
          day = formatDay(dated);
          continue;
        }
        const said = /^- ([^:]{1,40}): (.+)$/.exec(p.text);
        if (said && (day !== null || said[1] === "User" || said[1] === "Assistant") && transcriptPrefix(`${said[1]}: x`)?.speaker) {
          digest.push({ day, speaker: said[1], text: said[2] });
          continue;
        }
      }
      out.push({ section, text: p.text });
    }
  }
  return { units: out, digest };
}
