// What the token bar says, in words: its accessible name, and the level named as well as
// coloured (a colour alone tells nothing to a screen reader or to someone who cannot see it).
import type { ContextStatusJson } from "@/lib/contract";
import { compactTokens, percentLabel } from "@/lib/client/format";

/** "33% used, 25K of 76K tokens, compaction at 80%, warning". */
export function tokenBarSummary(status: ContextStatusJson | null): string {
  if (!status) return "Context usage: no session yet";
  return [
    `${percentLabel(status.usage_percent)} used`,
    `${compactTokens(status.current_tokens)} of ${compactTokens(status.capacity_tokens)} tokens`,
    `compaction at ${percentLabel(status.threshold_percent)}`,
    status.status,
  ].join(", ");
}

export interface BreakdownRow {
  key: keyof ContextStatusJson["breakdown"];
  label: string;
  tokens: number;
  /** A part of the row above it (files are counted in messages), drawn indented and not added again. */
  partOf: string | null;
}

const CATEGORIES: readonly { key: Exclude<BreakdownRow["key"], "files">; label: string }[] = [
  { key: "system", label: "System prompt" },
  { key: "tools", label: "Tools" },
  { key: "summary", label: "Summary" },
  { key: "memory", label: "Memory" },
  { key: "canvas", label: "Canvas" },
  { key: "messages", label: "Messages" },
];

/** The tooltip's breakdown: each category, and under Messages the part files take when there are any. */
export function breakdownRows(breakdown: ContextStatusJson["breakdown"]): BreakdownRow[] {
  const rows: BreakdownRow[] = CATEGORIES.map(({ key, label }) => ({ key, label, tokens: breakdown[key], partOf: null }));
  if (breakdown.files > 0) rows.push({ key: "files", label: "Files", tokens: breakdown.files, partOf: "messages" });
  return rows;
}
