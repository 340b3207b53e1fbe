"use client";
// One memory as the memory panel lists it: loaded into this session (with drop/restore),
// or a search hit (with its relevance and delete).
import { useState } from "react";
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson } from "@/lib/contract";
import { compactTokens, exactTokens, relativeTime } from "@/lib/client/format";
import { useMemoryStore } from "@/lib/client/memory-store";
import { isFact } from "@/lib/client/facts";
import { FactDetails, KindBadge } from "@/components/memory/FactItem";
import { DeleteControl, Meta, PinButton, PinnedBadge } from "@/components/memory/MemoryControls";

const EXCERPT_CHARS = 220;

const SOURCE_LABEL: Record<MemoryJson["source"], string> = {
  compaction: "from a compaction",
  archive: "archived session",
  manual: "saved by hand",
};

function percent(score: number): string {
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
}

function Excerpt({ text, struck }: { text: string; struck?: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > EXCERPT_CHARS;
  const shown = expanded || !long ? text : `${text.slice(0, EXCERPT_CHARS).trimEnd()} …`;
  return (
    <div>
      <p
        data-testid="memory-summary"
        className={`whitespace-pre-wrap break-words text-sm ${struck ? "text-zinc-400 dark:text-zinc-500 line-through" : "text-zinc-800 dark:text-zinc-200"}`}
      >
        {shown}
      </p>
      {long && (
        <button
          type="button"
          onClick={() => setExpanded((v) => !v)}
          aria-expanded={expanded}
          className="mt-1 text-xs font-medium text-sky-700 dark:text-sky-400 hover:underline"
        >
          {expanded ? "Show less" : "Show all"}
        </button>
      )}
    </div>
  );
}

export function LoadedMemoryItem({ item }: { item: LoadedMemoryJson }) {
  const busy = useMemoryStore((s) => !!s.busy[item.memory.id]);
  const toggleDropped = useMemoryStore((s) => s.toggleDropped);
  const { memory } = item;
  return (
    <li
      data-testid="memory-loaded"
      data-memory-id={memory.id}
      data-dropped={item.dropped ? "true" : "false"}
      className={`rounded-md border p-3 ${item.dropped ? "border-zinc-200 dark:border-zinc-800 bg-zinc-50 dark:bg-zinc-950" : "border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900"}`}
    >
      <Excerpt text={memory.summary} struck={item.dropped} />
      <Meta>
        {isFact(memory) && (
          <>
            <KindBadge kind="fact" />
            <FactDetails memory={memory} />
          </>
        )}
        <span title={`${exactTokens(item.tokens)} tokens`}>{compactTokens(item.tokens)} tokens</span>
        <span title={`Relevance when loaded: ${item.score}`}>score {percent(item.score)}</span>
        {memory.pinned && <PinnedBadge />}
        {item.dropped && <span className="font-medium text-zinc-600 dark:text-zinc-400">Dropped from context</span>}
      </Meta>
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          data-testid="memory-drop"
          disabled={busy}
          onClick={() => void toggleDropped(memory.id)}
          title={item.dropped ? "Put it back into this session's context" : "Take it out of this session's context"}
          className="rounded border border-zinc-300 dark:border-zinc-700 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:text-zinc-300 hover:bg-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-50"
        >
          {item.dropped ? "Restore" : "Drop"}
        </button>
        <PinButton memory={memory} busy={busy} />
      </div>
    </li>
  );
}

export function MemoryHitItem({ hit }: { hit: MemoryHitJson }) {
  const busy = useMemoryStore((s) => !!s.busy[hit.id]);
  return (
    <li data-testid="memory-hit" data-memory-id={hit.id} data-kind={hit.kind} className="rounded-md border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 p-3">
      <Excerpt text={hit.summary} />
      <Meta>
        <KindBadge kind={hit.kind} />
        <span data-testid="memory-relevance" title={`Relevance ${hit.relevance}`}>
          relevance {percent(hit.relevance)}
        </span>
        {isFact(hit) ? (
          <FactDetails memory={hit} />
        ) : (
          <>
            <span title={new Date(hit.created_at).toLocaleString()}>{relativeTime(hit.created_at)}</span>
            <span>{SOURCE_LABEL[hit.source]}</span>
          </>
        )}
        {hit.pinned && <PinnedBadge />}
      </Meta>
      {/* A fact's tags are its kinds, already shown above. */}
      {hit.kind !== "fact" && hit.tags.length > 0 && (
        <ul className="mt-1.5 flex flex-wrap gap-1" aria-label="Tags">
          {hit.tags.map((t) => (
            <li key={t} className="rounded bg-zinc-100 dark:bg-zinc-800 px-1.5 py-0.5 text-xs text-zinc-600 dark:text-zinc-400">
              {t}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-2 flex gap-2">
        <PinButton memory={hit} busy={busy} />
        <DeleteControl memoryId={hit.id} busy={busy} />
      </div>
    </li>
  );
}

export function SavedMemoryItem({ memory }: { memory: MemoryJson }) {
  const busy = useMemoryStore((s) => !!s.busy[memory.id]);
  return (
    <li data-testid="memory-saved" data-memory-id={memory.id} className="rounded-md border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 p-3">
      <Excerpt text={memory.summary} />
      <Meta>
        <span>{SOURCE_LABEL[memory.source]}</span>
        <span title={new Date(memory.created_at).toLocaleString()}>{relativeTime(memory.created_at)}</span>
        {memory.pinned && <PinnedBadge />}
      </Meta>
      <div className="mt-2 flex gap-2">
        <PinButton memory={memory} busy={busy} />
      </div>
    </li>
  );
}
