"use client";
// Where older turns were condensed into a summary: before/after tokens and the reduction
// at a glance, the summary and what was kept (or left out) on expand, and Undo while it
// is the latest compaction. An undone compaction stays as a muted line in the history.
import { useEffect, useId, useRef, useState } from "react";
import type { CompactionJson, PreservedItemJson } from "@/lib/api/types";
import { exactTokens } from "@/lib/client/format";
import { MessageText } from "@/components/MessageText";

const PRESET_LABELS: Record<string, string> = {
  general: "General",
  debugging: "Debugging",
  code_review: "Code review",
  architecture: "Architecture",
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SummarySection {
  title: string | null;
  body: string;
}

/** Splits a summary on its `### ` headings; text before the first heading is an untitled section. */
function summarySections(summary: string): SummarySection[] {
  const sections: SummarySection[] = [];
  let current: SummarySection = { title: null, body: "" };
  for (const line of summary.split("\n")) {
    const heading = /^###\s+(.*)$/.exec(line);
    if (heading) {
      if (current.title !== null || current.body.trim()) sections.push(current);
      current = { title: heading[1].trim(), body: "" };
    } else {
      current.body += `${line}\n`;
    }
  }
  if (current.title !== null || current.body.trim()) sections.push(current);
  // Summaries are light markdown; a line that is all bold ("**Errors**") is a sub-heading and
  // loses its markers. Bold inside lines stays as written, so code such as f(**a, **b) is intact.
  return sections.map((s) => ({
    title: s.title?.replace(/^\*\*(.+)\*\*$/, "$1") ?? null,
    body: s.body.replace(/^\*\*([^*\n]+)\*\*(:?)$/gm, "$1$2").replace(/^\n+|\s+$/g, ""),
  }));
}

const isPreservedHeading = (title: string | null) => title !== null && /^preserved details\b/i.test(title);

/** "−66 %" (a real minus sign); an increase, which should not happen, reads "+3 %". */
function reductionLabel(percent: number): string {
  const rounded = Math.round(percent);
  return rounded >= 0 ? `−${rounded} %` : `+${-rounded} %`;
}

function costLabel(usd: number): string {
  if (usd <= 0) return "$0";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`;
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
  const line = reverted ? "bg-zinc-200" : "bg-sky-300";

  return (
    <section
      data-testid="compaction-divider"
      data-status={c.status}
      data-trigger={c.trigger}
      data-method={c.method}
      data-at-seq={c.at_seq}
      aria-label={reverted ? "Compaction undone" : `Context condensed: ${numbers}`}
      className={`flex flex-col gap-1 py-1 animate-tk-appear ${reverted ? "text-zinc-400" : "text-sky-900"}`}
    >
      <div className="flex items-center gap-3 text-xs font-medium">
        <span className={`h-px flex-1 ${line}`} aria-hidden />
        <button
          type="button"
          data-testid="compaction-expand"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setExpanded((v) => !v)}
          className="flex items-center gap-1.5 rounded px-1.5 py-0.5 text-center hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-sky-500"
        >
          <span aria-hidden>{expanded ? "▾" : "▸"}</span>
          <span data-testid="compaction-title">{reverted ? "Compaction undone" : `Context condensed (${numbers})`}</span>
        </button>
        <span className={`h-px flex-1 ${line}`} aria-hidden />
      </div>
      <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 text-[11px] text-zinc-500 [&>span+span]:before:mr-2 [&>span+span]:before:content-['·']">
        {reverted && <span>The condensed turns are back in the window (was {numbers}).</span>}
        {!reverted &&
          tags.map((t) => (
            <span key={t} data-testid="compaction-hint" className="rounded-full bg-zinc-100 px-2 py-0.5 text-zinc-600">
              {t}
            </span>
          ))}
        {!reverted && (
          <span>
            {c.messages_condensed} message{c.messages_condensed === 1 ? "" : "s"} condensed
          </span>
        )}
        {!reverted && retention && (
          <span data-testid="compaction-retention" className={c.omitted_items.length > 0 ? "text-amber-700" : ""}>
            {retention}
          </span>
        )}
        {c.can_undo && !reverted && (
          <button
            type="button"
            data-testid="compaction-undo"
            onClick={onUndo}
            disabled={undoDisabled || undoing}
            className="rounded border border-zinc-300 bg-white px-2 py-0.5 font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-50"
          >
            {undoing ? "Undoing…" : "Undo"}
          </button>
        )}
      </div>
      {expanded && <Details id={panelId} c={c} templateNames={templateNames} />}
    </section>
  );
}

function Details({ id, c, templateNames }: { id: string; c: CompactionJson; templateNames: Record<string, string> }) {
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
      className="mx-auto mt-1 w-full max-w-3xl space-y-3 rounded-lg border border-sky-200 bg-sky-50/50 px-4 py-3 text-sm text-zinc-800"
    >
      {c.summary === null ? (
        <p className="text-zinc-600">
          No summary was written: the oldest turns slid out of the window instead
          {c.fallback_reason ? ` (${c.fallback_reason})` : ""}.
        </p>
      ) : (
        sections.map((s, i) => (
          <div key={i} data-testid="compaction-section" data-title={s.title ?? ""}>
            {s.title && <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-sky-900">{s.title}</h4>}
            {s.body ? <MessageText text={s.body} /> : <p className="text-xs italic text-zinc-500">(empty)</p>}
          </div>
        ))
      )}
      {c.summary !== null && !hasPreservedSection && <PreservedDetails items={c.preserved_items} total={c.items_total} />}
      {c.omitted_items.length > 0 && (
        <div data-testid="compaction-omitted">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-amber-800">
            Left out ({c.omitted_items.length})
          </h4>
          <ItemList items={c.omitted_items} />
        </div>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 border-t border-sky-200 pt-2 text-xs text-zinc-600">
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
          {costLabel(c.cost_usd)}
        </dd>
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
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-sky-900">Preserved details</h4>
      {items.length > 0 ? (
        <>
          <p className="mb-1 text-xs text-zinc-500">Added verbatim because the summary had left them out:</p>
          <ItemList items={items} />
        </>
      ) : (
        <p className="text-xs text-zinc-600">
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
          <span className="shrink-0 rounded bg-zinc-100 px-1.5 text-[10px] uppercase text-zinc-500">{item.kind.replace(/_/g, " ")}</span>
          <code className="min-w-0 break-all font-mono text-zinc-800">{item.text}</code>
        </li>
      ))}
    </ul>
  );
}
