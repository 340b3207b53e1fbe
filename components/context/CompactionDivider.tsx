"use client";
// Where older turns were condensed into a summary: before/after tokens and the reduction
// at a glance, the summary and what was kept (or left out) on expand, and Undo while it
// is the latest compaction. An undone compaction stays as a muted line in the history.
import { useId, useState } from "react";
import { ChevronRight } from "lucide-react";
import type { CompactionJson } from "@/lib/contract";
import { exactTokens } from "@/lib/client/format";
import { CompactionDetails, reductionLabel } from "@/components/context/CompactionDetails";

/** Short hints next to the numbers: how it ran, when that is not the usual manual LLM summary. */
function hints(c: CompactionJson): string[] {
  const out: string[] = [];
  if (c.trigger === "auto") out.push("auto");
  if (c.trigger === "error_recovery") out.push("recovery");
  if (c.method === "extractive") out.push("fallback: extractive summary");
  if (c.method === "sliding") out.push("fallback: turns slid out");
  return out;
}

/** "42/42 details kept", plus "3 left out" when the summary could not hold everything. */
function retentionLabel(c: CompactionJson): string | null {
  if (c.method === "sliding" || c.items_total <= 0) return null;
  const kept = Math.round(c.items_total * c.retention_rate);
  const left = c.omitted_items.length || c.items_total - kept;
  return left > 0 ? `${kept}/${c.items_total} details kept · ${left} left out` : `${kept}/${c.items_total} details kept`;
}

export function CompactionDivider({
  compaction: c,
  undoing,
  undoDisabled,
  onUndo,
  templateNames = {},
}: {
  compaction: CompactionJson;
  undoing: boolean;
  undoDisabled: boolean;
  onUndo(): void;
  /** Saved templates' names by id, when known. */
  templateNames?: Record<string, string>;
}) {
  const [expanded, setExpanded] = useState(false);
  const panelId = useId();
  const reverted = c.status === "reverted";
  const numbers = `${exactTokens(c.pre_tokens)} → ${exactTokens(c.post_tokens)} tokens, ${reductionLabel(c.reduction_percent)}`;
  const retention = retentionLabel(c);
  const tags = hints(c);
  const line = reverted ? "bg-zinc-200 dark:bg-zinc-700" : "bg-sky-300 dark:bg-sky-700";

  return (
    <section
      data-testid="compaction-divider"
      data-compaction-id={c.id}
      data-status={c.status}
      data-trigger={c.trigger}
      data-method={c.method}
      data-at-seq={c.at_seq}
      aria-label={reverted ? "Compaction undone" : `Context condensed: ${numbers}`}
      className={`flex flex-col gap-1 py-1 animate-tk-appear ${reverted ? "text-zinc-400 dark:text-zinc-500" : "text-sky-900 dark:text-sky-200"}`}
    >
      <div className="flex items-center gap-3 text-xs font-medium">
        <span className={`h-px flex-1 ${line}`} aria-hidden />
        <button
          type="button"
          data-testid="compaction-expand"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setExpanded((v) => !v)}
          className="flex items-center gap-1.5 rounded px-1.5 py-0.5 text-center hover:bg-zinc-100 dark:hover:bg-zinc-800 focus-visible:outline-2 focus-visible:outline-sky-500"
        >
          <ChevronRight aria-hidden className={`h-3.5 w-3.5 transition-transform ${expanded ? "rotate-90" : ""}`} />
          <span data-testid="compaction-title">{reverted ? "Compaction undone" : `Context condensed (${numbers})`}</span>
        </button>
        <span className={`h-px flex-1 ${line}`} aria-hidden />
      </div>
      <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 text-[11px] text-zinc-500 dark:text-zinc-400 [&>span+span]:before:mr-2 [&>span+span]:before:content-['·']">
        {reverted && <span>The condensed turns are back in the window (was {numbers}).</span>}
        {!reverted &&
          tags.map((t) => (
            <span key={t} data-testid="compaction-hint" className="rounded-full bg-zinc-100 dark:bg-zinc-800 px-2 py-0.5 text-zinc-600 dark:text-zinc-400">
              {t}
            </span>
          ))}
        {!reverted && (
          <span>
            {c.messages_condensed} message{c.messages_condensed === 1 ? "" : "s"} condensed
          </span>
        )}
        {!reverted && retention && (
          <span data-testid="compaction-retention" className={c.omitted_items.length > 0 ? "text-amber-700 dark:text-amber-400" : ""}>
            {retention}
          </span>
        )}
        {c.can_undo && !reverted && (
          <button
            type="button"
            data-testid="compaction-undo"
            onClick={onUndo}
            disabled={undoDisabled || undoing}
            className="rounded border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-0.5 font-medium text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50"
          >
            {undoing ? "Undoing…" : "Undo"}
          </button>
        )}
      </div>
      {expanded && <CompactionDetails id={panelId} c={c} templateNames={templateNames} />}
    </section>
  );
}
