"use client";
// What a compaction divider opens onto: the summary's sections (markdown, with preserved
// details shown verbatim), what was kept or left out, and how the compaction ran.
import { useEffect, useRef } from "react";
import type { CompactionJson, PreservedItemJson } from "@/lib/contract";
import { exactTokens, usd } from "@/lib/client/format";
import { isPreservedHeading, summarySections } from "@/lib/client/summary-sections";
import { MarkdownText } from "@/components/markdown/MarkdownText";

const PRESET_LABELS: Record<string, string> = {
  general: "General",
  debugging: "Debugging",
  code_review: "Code review",
  architecture: "Architecture",
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "−66 %" (a real minus sign); an increase, which should not happen, reads "+3 %". */
export function reductionLabel(percent: number): string {
  const rounded = Math.round(percent);
  return rounded >= 0 ? `−${rounded} %` : `+${-rounded} %`;
}

/** What condensing did to the prompt cache, in words. */
function cacheLabel(cache: NonNullable<CompactionJson["cache"]>): string {
  if (!cache.warm) return "cold (idle over five minutes): nothing cached was lost, and the shorter prompt is cheaper at once";
  const rewrite = `${cache.rewrite_tokens.toLocaleString("en-US")} tokens cached again (${usd(Math.max(0, cache.break_cost_usd))} once)`;
  if (cache.payback_turns === 0) return `warm; ${rewrite}, cheaper from the next turn`;
  if (cache.payback_turns < 0) return `warm; ${rewrite}, not repaid by a shorter prompt`;
  return `warm; ${rewrite}, repaid after ${cache.payback_turns} turn${cache.payback_turns === 1 ? "" : "s"}`;
}

function durationLabel(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function templateLabel(template: string, names: Record<string, string>): string {
  if (names[template]) return names[template];
  if (PRESET_LABELS[template]) return PRESET_LABELS[template];
  return UUID_RE.test(template) ? "Saved template" : template;
}

const TRIGGER_LABELS: Record<CompactionJson["trigger"], string> = {
  manual: "manual (/compact)",
  auto: "automatic (threshold reached)",
  error_recovery: "error recovery (prompt too long)",
};

export function CompactionDetails({ id, c, templateNames }: { id: string; c: CompactionJson; templateNames: Record<string, string> }) {
  const sections = c.summary ? summarySections(c.summary) : [];
  const hasPreservedSection = sections.some((s) => isPreservedHeading(s.title));
  const panel = useRef<HTMLDivElement>(null);
  // A divider at the foot of the chat opens below the fold: bring what was asked for into view.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <div
      ref={panel}
      id={id}
      data-testid="compaction-summary"
      className="mx-auto mt-1 w-full max-w-3xl space-y-3 rounded-lg border border-sky-200 dark:border-sky-900 bg-sky-50/50 dark:bg-sky-950/30 px-4 py-3 text-sm text-zinc-800 dark:text-zinc-200"
    >
      {c.summary === null ? (
        <p className="text-zinc-600 dark:text-zinc-400">
          No summary was written: the oldest turns slid out of the window instead
          {c.fallback_reason ? ` (${c.fallback_reason})` : ""}.
        </p>
      ) : (
        sections.map((s, i) => (
          <div key={i} data-testid="compaction-section" data-title={s.title ?? ""}>
            {s.title && <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-sky-900 dark:text-sky-200">{s.title}</h4>}
            {s.body ? <MarkdownText text={s.body} /> : <p className="text-xs italic text-zinc-500 dark:text-zinc-400">(empty)</p>}
          </div>
        ))
      )}
      {c.summary !== null && !hasPreservedSection && <PreservedDetails items={c.preserved_items} total={c.items_total} />}
      {c.omitted_items.length > 0 && (
        <div data-testid="compaction-omitted">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-amber-800 dark:text-amber-300">
            Left out ({c.omitted_items.length})
          </h4>
          <ItemList items={c.omitted_items} />
        </div>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 border-t border-sky-200 dark:border-sky-900 pt-2 text-xs text-zinc-600 dark:text-zinc-400">
        <dt className="font-medium">Tokens</dt>
        <dd className="tabular-nums">
          {exactTokens(c.pre_tokens)} → {exactTokens(c.post_tokens)} ({reductionLabel(c.reduction_percent)})
        </dd>
        <dt className="font-medium">Turns</dt>
        <dd>
          {c.from_turn === c.through_turn ? `turn ${c.from_turn}` : `turns ${c.from_turn}–${c.through_turn}`},{" "}
          {c.messages_condensed} message{c.messages_condensed === 1 ? "" : "s"}
        </dd>
        <dt className="font-medium">Trigger</dt>
        <dd>{TRIGGER_LABELS[c.trigger]}</dd>
        <dt className="font-medium">Method</dt>
        <dd>
          {c.method === "llm" ? "summary by Claude" : c.method === "extractive" ? "extractive summary (fallback)" : "turns slid out (fallback)"}
          {c.fallback_reason ? ` — ${c.fallback_reason}` : ""}
        </dd>
        <dt className="font-medium">Model</dt>
        <dd>{c.model ?? "none"}</dd>
        <dt className="font-medium">Cost</dt>
        <dd data-testid="compaction-cost" className="tabular-nums">
          {usd(c.cost_usd)}
        </dd>
        {c.cache && (
          <>
            <dt className="font-medium">Prompt cache</dt>
            <dd data-testid="compaction-cache">{cacheLabel(c.cache)}</dd>
          </>
        )}
        <dt className="font-medium">Duration</dt>
        <dd className="tabular-nums">{durationLabel(c.duration_ms)}</dd>
        <dt className="font-medium">Template</dt>
        <dd>{templateLabel(c.template, templateNames)}</dd>
        {c.instructions && (
          <>
            <dt className="font-medium">Instructions</dt>
            <dd data-testid="compaction-instructions" className="whitespace-pre-wrap">
              {c.instructions}
            </dd>
          </>
        )}
        {c.summary !== null && (
          <>
            <dt className="font-medium">Summary</dt>
            <dd className="tabular-nums">{exactTokens(c.summary_tokens)} tokens</dd>
          </>
        )}
      </dl>
    </div>
  );
}

function PreservedDetails({ items, total }: { items: PreservedItemJson[]; total: number }) {
  return (
    <div data-testid="compaction-preserved">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-sky-900 dark:text-sky-200">Preserved details</h4>
      {items.length > 0 ? (
        <>
          <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">Added verbatim because the summary had left them out:</p>
          <ItemList items={items} />
        </>
      ) : (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {total > 0 ? `The summary already held all ${total} must-keep details.` : "No must-keep details in these turns."}
        </p>
      )}
    </div>
  );
}

function ItemList({ items }: { items: PreservedItemJson[] }) {
  return (
    <ul className="space-y-0.5 text-xs">
      {items.map((item, i) => (
        <li key={i} className="flex gap-2">
          <span className="shrink-0 rounded bg-zinc-100 dark:bg-zinc-800 px-1.5 text-[10px] uppercase text-zinc-500 dark:text-zinc-400">{item.kind.replace(/_/g, " ")}</span>
          <code className="min-w-0 break-all font-mono text-zinc-800 dark:text-zinc-200">{item.text}</code>
        </li>
      ))}
    </ul>
  );
}
