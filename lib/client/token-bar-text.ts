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
