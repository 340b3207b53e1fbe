// The fallback summary: built from the must-keep items and the turns' opening sentences, no
// LLM involved, in the same sections the summarizer writes. Deterministic, so a failed or
// offline summarizer still yields a compaction that keeps what matters.
import { caseInsensitive, FACT_ANCHOR_KINDS, isPersonalStatement, speakerOf } from "./must-keep";
import { capText, firstSentenceOf, normalizeWs, sentencesOf, splitCode } from "./prose";
import { parseSections } from "./sections";
import { SUMMARY_HEADINGS } from "./templates";
import type { CountTokens, MustKeepItem, MustKeepKind, TranscriptTurn } from "./types";
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
// lead (as in verification); the turn-by-turn openers are the first to go.
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
// A sentence holding names, places, dates or amounts outranks each of them alone (it says what
// they are about) and the more it holds the higher it goes; chatter has none and stays out.
const FACT_SENTENCE_BASE = 60;
const FACT_SENTENCE_STEP = 4;
const FACT_SENTENCE_MAX_ANCHORS = 5;
const FACT_SENTENCE_CHARS = 300;
/** Inline lines, one per kind, in the section they belong to. */
const INLINE_LABEL: Partial<Record<MustKeepKind, string>> = {
  identifier: "Identifiers",
  person: "People",
  place: "Places",
  date_time: "Dates and times",
  quantity: "Amounts",
};
const SESSION_LINE_PRIORITY = 100;
const TURN_OPENER_PRIORITY = 10;
const PREVIOUS_SECTION_PRIORITY: Record<Section, number> = { 0: 95, 1: 91, 2: 64, 3: 79, 4: 84, 5: 70 };

const OPENER_CHARS = 200;
const EMPTY = "(none)";

interface Unit {
  section: Section;
  text: string;
  priority: number;
  order: number;
  /** Identifiers (and names, places, dates, amounts) share one labelled line instead of a bullet each. */
  inline: string | null;
  /** Turn openers go in "while the budget lasts": the first that misses ends them. */
  opener: boolean;
  /** Whitespace-normalized text (and lower-cased), for matching items against carried lines. */
  norm: string;
  key: string;
}

/**
 * A summary of `turns` (after `previousSummary`) within `maxTokens`: the previous summary's
 * content carried forward (per section when it has the PRD's headings, otherwise under
 * Important Context), a session line, the items in their sections, and each turn's opening
 * user sentence while room lasts. Content goes in by priority, whole (a code block is never
 * cut), so every item is in the result whenever they all fit.
 */
export function extractiveSummary(input: {
  previousSummary: string | null;
  turns: readonly TranscriptTurn[];
  items: readonly MustKeepItem[];
  maxTokens: number;
  countTokens: CountTokens;
}): string {
  const units: Unit[] = [];
  const add = (section: Section, text: string, priority: number, inline: string | null = null, opener = false): Unit => {
    const norm = normalizeWs(text);
    const unit = { section, text, priority, order: units.length, inline, opener, norm, key: norm.toLowerCase() };
    units.push(unit);
    return unit;
  };

  const previous = carriedUnits(input.previousSummary);
  for (const p of previous) add(p.section, p.text, PREVIOUS_SECTION_PRIORITY[p.section]);
  const carried = units.slice();

  const openers = input.turns.map(firstUserSentence);
  const line = sessionLine(input.turns, openers);
  if (line) add(SESSION, line, SESSION_LINE_PRIORITY);

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
    else if (isPersonalStatement(item.kind)) add(KIND_SECTION[item.kind], `- User: ${item.text}`, priority);
    else if (!item.text.includes("```")) add(KIND_SECTION[item.kind], `- ${item.text}`, priority);
  }

  const taken = new Set(input.items.map((i) => normalizeWs(i.text).toLowerCase()));
  for (const f of factSentences(input.turns, input.items)) {
    if (taken.has(f.key)) continue;
    taken.add(f.key);
    add(CONTEXT, `- ${f.speaker}: ${f.text}`, f.priority);
  }

  input.turns.forEach((turn, i) => {
    const opener = openers[i];
    if (opener && !taken.has(opener.toLowerCase())) add(CONTEXT, `- Turn ${turn.turnSeq}: ${opener}`, TURN_OPENER_PRIORITY, null, true);
  });

  return fit(units, input.maxTokens, input.countTokens);
}

/**
 * Sentences of the turns that hold fact anchors (names, places, dates, amounts found among
 * the items), scored by how many distinct anchors they hold. Code is not read.
 */
function factSentences(turns: readonly TranscriptTurn[], items: readonly MustKeepItem[]) {
  const anchors = items.filter((i) => FACT_ANCHOR_KINDS.includes(i.kind));
  const out: { text: string; key: string; speaker: string; priority: number }[] = [];
  if (anchors.length === 0) return out;
  for (const turn of turns) {
    turn.messages.forEach((m, i) => {
      const speaker = speakerOf(m.role, i);
      if (m.role === "user" && speaker !== "user") return; // tool output
      for (const s of sentencesOf(splitCode(m.text).prose)) {
        const text = capText(normalizeWs(s.text), FACT_SENTENCE_CHARS);
        if (text.includes("`")) continue;
        const lower = text.toLowerCase();
        const held = anchors.filter((a) => (caseInsensitive(a.kind) ? lower.includes(a.text.toLowerCase()) : text.includes(a.text))).length;
        if (held === 0) continue;
        const priority = FACT_SENTENCE_BASE + FACT_SENTENCE_STEP * Math.min(held, FACT_SENTENCE_MAX_ANCHORS) - (speaker === "user" ? 0 : FACT_SENTENCE_STEP);
        out.push({ text, key: lower, speaker: speaker === "user" ? "User" : "Assistant", priority });
      }
    });
  }
  return out;
}

function render(units: readonly Unit[]): string {
  const bySection: string[][] = SUMMARY_HEADINGS.map(() => []);
  const inline: Map<string, string[]>[] = SUMMARY_HEADINGS.map(() => new Map());
  for (const u of [...units].sort((a, b) => a.order - b.order)) {
    if (u.inline === null) bySection[u.section].push(u.text);
    else inline[u.section].set(u.inline, [...(inline[u.section].get(u.inline) ?? []), u.text]);
  }
  return SUMMARY_HEADINGS.map((h, i) => {
    const body = [...bySection[i]];
    for (const [label, texts] of inline[i]) body.push(`${label}: ${texts.join(", ")}`);
    return `### ${h}\n${body.length > 0 ? body.join("\n") : EMPTY}`;
  }).join("\n\n");
}

/** Greedy by priority within the budget, then trimmed from the least valuable end if the exact count disagrees. */
function fit(units: Unit[], maxTokens: number, countTokens: CountTokens): string {
  const skeleton = render([]);
  let used = countTokens(skeleton);
  if (used > maxTokens) return headingsWithin(maxTokens, countTokens);
  const byValue = [...units].sort((a, b) => b.priority - a.priority || a.order - b.order);
  const chosen: Unit[] = [];
  let openersDone = false;
  for (const u of byValue) {
    if (u.opener && openersDone) continue;
    // A name or date already inside a chosen sentence needs no line of its own.
    if (u.inline !== null && u.section === CONTEXT && chosen.some((c) => c.norm.includes(u.norm))) continue;
    const cost = countTokens(u.inline ? `${u.text}, ` : `${u.text}\n`);
    if (used + cost > maxTokens) {
      openersDone ||= u.opener;
      continue;
    }
    used += cost;
    chosen.push(u);
  }
  let text = render(chosen);
  while (chosen.length > 0 && countTokens(text) > maxTokens) {
    chosen.pop();
    text = render(chosen);
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

function sessionLine(turns: readonly TranscriptTurn[], turnOpeners: readonly (string | null)[]): string | null {
  if (turns.length === 0) return null;
  const first = turns[0].turnSeq;
  const last = turns[turns.length - 1].turnSeq;
  const range = first === last ? `Turn ${first}` : `Turns ${first}–${last}`;
  const openers = turnOpeners.filter((s): s is string => s !== null);
  const parts = [`${range} condensed (${turns.length} turn${turns.length === 1 ? "" : "s"}).`];
  if (openers.length > 0) parts.push(`Started with: ${openers[0]}`);
  if (openers.length > 1) parts.push(`Most recently: ${openers[openers.length - 1]}`);
  return parts.join(" ");
}

function firstUserSentence(turn: TranscriptTurn): string | null {
  const user = turn.messages.find((m) => m.role === "user");
  if (!user) return null;
  const first = firstSentenceOf(splitCode(user.text).prose);
  if (!first) return null;
  const text = capText(normalizeWs(first.text), OPENER_CHARS);
  return text.includes("```") ? null : text;
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
function carriedUnits(previous: string | null): { section: Section; text: string }[] {
  if (!previous || previous.trim() === "") return [];
  const out: { section: Section; text: string }[] = [];
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
      out.push({ section, text: p.text });
    }
  }
  return out;
}
