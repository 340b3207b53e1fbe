// Verification: the summary is checked against the must-keep items, and what it lost is put
// back verbatim, within a budget that still lets the compaction shrink the context.
import { dateForms } from "@/lib/context/dates";
import { caseInsensitive, factAnchors, isPersonalStatement } from "./must-keep";
import { normalizeWs } from "./prose";
import type { CountTokens, MustKeepItem, MustKeepKind, VerifiedSummary } from "./types";

export const DETAILS_HEADING = "### Preserved details";

export const KIND_LABELS: Record<MustKeepKind, string> = {
  decision: "Decisions",
  error: "Errors",
  pending_task: "Pending tasks",
  commitment: "Plans and commitments",
  preference: "Preferences",
  event: "Events",
  file_path: "Files",
  config: "Configuration",
  url: "URLs",
  date_time: "Dates and times",
  person: "People",
  place: "Places",
  quantity: "Amounts",
  code_block: "Code",
  identifier: "Identifiers",
};

/** A text prepared once for many presence checks. */
export interface Haystack {
  exact: string;
  lower: string;
  /** Per line, its word stems: filled on the first retold-statement check. */
  lines?: Set<string>[];
}

export function haystack(text: string): Haystack {
  const exact = normalizeWs(text);
  return { exact, lower: exact.toLowerCase(), lines: undefined };
}

const STOP = new Set(
  "the a an and or but so to of in on at for with from by as is are was were be been am i i'm i'll i've i'd me my we we're we'll our us you your it its this that these those there then than just really very also will would can could should have has had do does did not no yes going gonna get got".split(" "),
);
// Five letters tell most inflections apart from other words ("moving"/"moved" → "movin"/"moved"
// differ, but "planning"/"planned" → "plann"); enough for a retelling, not for a paraphrase.
const stem = (w: string) => w.slice(0, 5);

function contentStems(text: string): string[] {
  return [...new Set((text.toLowerCase().match(/[\p{L}\p{N}$€£%]+(?:['’][a-z]+)?/gu) ?? []).filter((w) => !STOP.has(w) && (w.length >= 3 || /\d/.test(w))).map(stem))];
}

function lineStems(text: Haystack): Set<string>[] {
  text.lines ??= text.exact === "" ? [] : text.lower.split(/(?<=[.!?;])\s+|\s[-*•]\s|\s#+\s/).map((l) => new Set(contentStems(l)));
  return text.lines;
}

/** Share of a retold statement's content words that must appear in one line of the summary. */
export const GIST_SHARE = 0.6;

/**
 * A personal statement ("I'm moving to Lisbon in June") survives a retelling ("The user moves
 * to Lisbon in June") when one line of the summary holds every name, place, date and amount
 * in it, exactly, and most of its other content words. A summary that drops the date or the
 * place has lost the fact, however much else it kept.
 */
function gistPresent(needle: string, text: Haystack): boolean {
  const anchors = factAnchors(needle);
  for (const a of anchors) {
    // "last week (the week before 21 January 2022)": the date in brackets is what must survive.
    if (a.kind === "date_time" && /^\s*\(/.test(needle.slice(a.index + a.text.length))) continue;
    // "January 2022" inside "21 January 2022" is checked with it.
    if (anchors.some((b) => b !== a && b.text.length > a.text.length && b.index <= a.index && a.index + a.text.length <= b.index + b.text.length)) continue;
    if (!anchorPresent(a.kind, a.text, text)) return false;
  }
  const words = contentStems(needle);
  if (words.length === 0) return false;
  const need = Math.ceil(words.length * GIST_SHARE);
  return lineStems(text).some((line) => words.filter((w) => line.has(w)).length >= need);
}

/** A name, place or amount as written; a date as written or in another common form ("January 21, 2022"). */
function anchorPresent(kind: MustKeepKind, anchor: string, text: Haystack): boolean {
  if (kind === "date_time") return dateForms(anchor).some((f) => text.lower.includes(f.toLowerCase()));
  return caseInsensitive(kind) ? text.lower.includes(anchor.toLowerCase()) : text.exact.includes(anchor);
}

/**
 * Whether the item's text occurs in the text, whitespace-normalized on both sides (a
 * summarizer re-wraps lines and re-indents code). Decisions, pending tasks, dates and personal
 * statements match case-insensitively, because a summarizer legitimately re-cases a sentence
 * it turns into a bullet, and personal statements also match by gist (see gistPresent); a
 * date also in its other common forms ("January 21, 2022" for "21 January 2022"); errors,
 * code, paths, config, URLs and identifiers must match exactly, since a changed letter there
 * is a different file, variable or message.
 */
export function isPresent(item: MustKeepItem, text: Haystack): boolean {
  const needle = normalizeWs(item.text);
  if (anchorPresent(item.kind, needle, text)) return true;
  return isPersonalStatement(item.kind) && gistPresent(needle, text);
}

function itemLine(item: MustKeepItem): string {
  return item.kind === "code_block" ? item.text : `- ${item.text}`;
}

function renderDetails(items: readonly MustKeepItem[]): string {
  const lines: string[] = [];
  let kind: MustKeepKind | null = null;
  for (const item of items) {
    if (item.kind !== kind) {
      kind = item.kind;
      lines.push(`**${KIND_LABELS[kind]}**`);
    }
    lines.push(itemLine(item));
  }
  return `\n\n${DETAILS_HEADING}\n${lines.join("\n")}`;
}

/**
 * Appends the items the summary lacks under "### Preserved details", grouped by kind with
 * a label, each verbatim. Missing items are taken in rank order (the order extractMustKeep
 * returns: decisions, errors, pending tasks, file paths, … identifiers last); an item that
 * would push the section over `detailsBudget` tokens is left out and the next, smaller one
 * is tried, so a higher-ranked item never loses its place to a lower-ranked one, but one
 * huge code block does not crowd out every identifier after it.
 *
 * An item that was missing from the summary but is now inside an appended item (a name
 * inside an appended code block) counts as retained without being appended again.
 * retentionRate = items present in the final text / itemsTotal (1 when there are none),
 * which is (retainedByModel + appended) / itemsTotal plus those covered items.
 */
export function verifySummary(
  summary: string,
  items: readonly MustKeepItem[],
  opts: { detailsBudget: number; countTokens: CountTokens },
): VerifiedSummary {
  const inSummary = haystack(summary);
  const missing = items.filter((it) => !isPresent(it, inSummary));
  const retainedByModel = items.length - missing.length;

  const appended: MustKeepItem[] = [];
  if (missing.length > 0 && opts.detailsBudget > 0) {
    let used = opts.countTokens(`\n\n${DETAILS_HEADING}\n`);
    let lastKind: MustKeepKind | null = null;
    let added = haystack("");
    for (const item of missing) {
      if (isPresent(item, added)) continue;
      const label = item.kind !== lastKind ? opts.countTokens(`**${KIND_LABELS[item.kind]}**\n`) : 0;
      const cost = label + opts.countTokens(`${itemLine(item)}\n`);
      if (used + cost > opts.detailsBudget) continue;
      used += cost;
      lastKind = item.kind;
      appended.push(item);
      const t = normalizeWs(item.text);
      added = { exact: `${added.exact} ${t}`, lower: `${added.lower} ${t.toLowerCase()}`, lines: undefined };
    }
    // Per-piece counts are not exactly additive; the rendered section is what must fit.
    while (appended.length > 0 && opts.countTokens(renderDetails(appended)) > opts.detailsBudget) appended.pop();
  }

  const text = appended.length > 0 ? `${summary.trimEnd()}${renderDetails(appended)}` : summary;
  const final = haystack(text);
  const isAppended = new Set(appended);
  // Still in rank order: `missing` keeps the order of `items`.
  const omitted = missing.filter((it) => !isAppended.has(it) && !isPresent(it, final));
  const retentionRate = items.length === 0 ? 1 : (items.length - omitted.length) / items.length;
  return { text, itemsTotal: items.length, retainedByModel, appended, omitted, retentionRate };
}
