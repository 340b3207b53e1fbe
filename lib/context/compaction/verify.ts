// Verification: the summary is checked against the must-keep items, and what it lost is put
// back verbatim, within a budget that still lets the compaction shrink the context.
import { caseInsensitive } from "./must-keep";
import { normalizeWs } from "./prose";
import type { CountTokens, MustKeepItem, MustKeepKind, VerifiedSummary } from "./types";

export const DETAILS_HEADING = "### Preserved details";

export const KIND_LABELS: Record<MustKeepKind, string> = {
  decision: "Decisions",
  error: "Errors",
  pending_task: "Pending tasks",
  file_path: "Files",
  config: "Configuration",
  url: "URLs",
  code_block: "Code",
  identifier: "Identifiers",
};

/** A text prepared once for many presence checks. */
export interface Haystack {
  exact: string;
  lower: string;
}

export function haystack(text: string): Haystack {
  const exact = normalizeWs(text);
  return { exact, lower: exact.toLowerCase() };
}

/**
 * Whether the item's text occurs in the text, whitespace-normalized on both sides (a
 * summarizer re-wraps lines and re-indents code). Decisions and pending tasks match
 * case-insensitively, because a summarizer legitimately re-cases a sentence it turns into a
 * bullet; errors, code, paths, config, URLs and identifiers must match exactly, since a
 * changed letter there is a different file, variable or message.
 */
export function isPresent(item: MustKeepItem, text: Haystack): boolean {
  const needle = normalizeWs(item.text);
  return caseInsensitive(item.kind) ? text.lower.includes(needle.toLowerCase()) : text.exact.includes(needle);
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
      added = { exact: `${added.exact} ${t}`, lower: `${added.lower} ${t.toLowerCase()}` };
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
