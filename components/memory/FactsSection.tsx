"use client";
// The memory panel's Facts: what Threadkeeper learned as atomic facts from this session's
// condensed or archived turns, current ones first; those a newer fact replaced wait under a
// disclosure, dimmed, each saying what replaced it.
import { useId, useState } from "react";
import { ChevronRight } from "lucide-react";
import { splitFacts } from "@/lib/client/facts";
import { useMemoryStore } from "@/lib/client/memory-store";
import { FactItem } from "@/components/memory/FactItem";

/** Current facts shown before "Show all": a long session's facts must not push search off the panel. */
const FIRST_FACTS = 5;
const MUTED = "text-sm text-zinc-500 dark:text-zinc-400";

export function FactsSection({ sessionId }: { sessionId: string | null }) {
  const facts = useMemoryStore((s) => s.facts);
  const listed = useMemoryStore((s) => s.listed);
  const loading = useMemoryStore((s) => s.loading);
  const error = useMemoryStore((s) => s.error);
  const [showAll, setShowAll] = useState(false);
  const titleId = useId();
  const { current, replaced } = splitFacts(facts);
  const shown = showAll ? current : current.slice(0, FIRST_FACTS);

  return (
    <section data-testid="memory-facts-section" aria-labelledby={titleId} className="flex flex-col gap-2">
      <h3 id={titleId} className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Facts from this session{current.length > 0 && <span className="ml-1 font-normal normal-case tabular-nums">({current.length})</span>}
      </h3>
      {!sessionId ? (
        <p className={MUTED}>No session yet: facts are learned from a session&apos;s conversation.</p>
      ) : !listed && loading ? (
        <p role="status" data-testid="facts-loading" className={MUTED}>
          Loading facts…
        </p>
      ) : !listed && error ? (
        <div role="alert" data-testid="facts-error" className="flex items-center justify-between gap-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300">
          <span>Could not load the facts.</span>
          <button
            type="button"
            onClick={() => void useMemoryStore.getState().load(sessionId)}
            className="rounded border border-red-300 px-2 py-0.5 text-xs font-medium hover:bg-red-100 dark:border-red-800 dark:hover:bg-red-900/40"
          >
            Retry
          </button>
        </div>
      ) : facts.length === 0 ? (
        <p data-testid="facts-empty" className={MUTED}>
          No facts yet: facts are learned when the conversation is condensed or archived.
        </p>
      ) : (
        <>
          {current.length === 0 ? (
            <p className={MUTED}>Every fact from this session was replaced by a newer one since.</p>
          ) : (
            <ul className="flex flex-col gap-2" data-testid="facts-current">
              {shown.map((f) => (
                <FactItem key={f.id} memory={f} />
              ))}
            </ul>
          )}
          {current.length > FIRST_FACTS && (
            <button
              type="button"
              data-testid="facts-show-all"
              aria-expanded={showAll}
              onClick={() => setShowAll((v) => !v)}
              className="self-start text-xs font-medium text-sky-700 hover:underline dark:text-sky-400"
            >
              {showAll ? "Show fewer" : `Show all ${current.length} facts`}
            </button>
          )}
          {replaced.length > 0 && <ReplacedFacts facts={replaced} />}
        </>
      )}
    </section>
  );
}

function ReplacedFacts({ facts }: { facts: ReturnType<typeof splitFacts>["replaced"] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        data-testid="facts-replaced-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
        className="flex items-center gap-1 self-start rounded text-xs font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-200"
      >
        <ChevronRight aria-hidden className={`h-3.5 w-3.5 transition-transform ${open ? "rotate-90" : ""}`} />
        Earlier, replaced ({facts.length})
      </button>
      {open && (
        <ul id={listId} className="flex flex-col gap-2" data-testid="facts-replaced">
          {facts.map((f) => (
            <FactItem key={f.id} memory={f} />
          ))}
        </ul>
      )}
    </div>
  );
}
