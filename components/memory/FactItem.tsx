"use client";
// One fact memory as the memory panel shows it: its sentence, kinds, when it was said, how
// often, and where (a link to the message, in this session or another). A replaced fact is
// dimmed and says what replaced it.
import { useEffect, useState } from "react";
import type { MemoryJson } from "@/lib/contract";
import { relativeTime } from "@/lib/client/format";
import { factKinds, messagesLabel, seenLabel, type FactWithDetails } from "@/lib/client/facts";
import { jumpToMessage } from "@/lib/client/jump-to-message";
import * as memoryApi from "@/lib/client/api/memory";
import { useMemoryStore } from "@/lib/client/memory-store";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { DeleteControl, Meta, PinButton, PinnedBadge } from "@/components/memory/MemoryControls";

function when(iso: string): { label: string; full: string } {
  return { label: relativeTime(iso), full: new Date(iso).toLocaleString() };
}

/** "Fact" or "Summary": search answers both kinds in one list. */
export function KindBadge({ kind }: { kind: MemoryJson["kind"] }) {
  const fact = kind === "fact";
  return (
    <span
      data-testid="memory-kind"
      data-kind={kind}
      className={`rounded px-1.5 py-0.5 font-medium ${
        fact ? "bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-300" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
      }`}
    >
      {fact ? "Fact" : "Summary"}
    </span>
  );
}

/**
 * Where the fact was said, as a link: in the open session it scrolls the chat to the message;
 * in another session it opens that session there. The panel closes once the message is found;
 * if it is not (its session was deleted since), the panel stays and says so.
 */
function Provenance({ memory }: { memory: FactWithDetails }) {
  const currentId = useSessionsStore((s) => s.currentId);
  const otherTitle = useSessionsStore((s) => s.sessions.find((x) => x.id === memory.session_id)?.title ?? null);
  const [state, setState] = useState<"idle" | "finding" | "missing">("idle");
  const sessionId = memory.session_id;
  if (!sessionId) return null;
  const here = sessionId === currentId;
  const where = messagesLabel(memory.fact);
  const label = here ? `this session, ${where}` : `${otherTitle ? `“${otherTitle}”` : "another session"}, ${where}`;

  const onClick = async () => {
    setState("finding");
    const found = await jumpToMessage(sessionId, memory.fact.from_seq, () => useMemoryStore.getState().setOpen(false));
    setState(found ? "idle" : "missing");
  };

  return (
    <span className="inline-flex min-w-0 items-center gap-1">
      <span>from</span>
      <button
        type="button"
        data-testid="fact-provenance"
        data-here={here ? "true" : "false"}
        onClick={() => void onClick()}
        disabled={state === "finding"}
        title={here ? `Show ${where} in the conversation` : `Open that session at ${where}`}
        className="min-w-0 truncate rounded text-left font-medium text-sky-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-sky-500 disabled:opacity-60 dark:text-sky-400"
      >
        {state === "finding" ? "finding…" : label}
      </button>
      {state === "missing" && (
        <span role="status" className="text-amber-700 dark:text-amber-400">
          (that message is no longer there)
        </span>
      )}
    </span>
  );
}

/** The kinds, when it was said, how often, and where: one wrapped line of small print. */
export function FactDetails({ memory }: { memory: FactWithDetails }) {
  const { fact } = memory;
  const said = when(fact.valid_from);
  const seen = seenLabel(fact);
  const kinds = factKinds(memory.tags);
  return (
    <>
      {kinds.map((k) => (
        <span key={k} data-testid="fact-kind" className="rounded bg-zinc-100 px-1.5 py-0.5 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          {k}
        </span>
      ))}
      <span data-testid="fact-said" title={`Said ${said.full}; valid from then`}>
        said {said.label}
      </span>
      {seen && (
        <span data-testid="fact-seen" title={`Last said ${new Date(fact.last_seen_at).toLocaleString()}`}>
          {seen}
        </span>
      )}
      <Provenance memory={memory} />
    </>
  );
}

/** The newer fact that replaced this one: from the panel's list, or fetched when it came from another session. */
function ReplacedBy({ id }: { id: string }) {
  const listed = useMemoryStore((s) => s.facts.find((f) => f.id === id) ?? null);
  const [fetched, setFetched] = useState<MemoryJson | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (listed) return;
    let live = true;
    memoryApi.getMemory(id).then(
      (m) => live && setFetched(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [id, listed]);
  const newer = listed ?? fetched;
  return (
    <p data-testid="fact-replaced-by" className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">
      <span className="font-medium">Replaced by: </span>
      {newer ? <span className="text-zinc-800 dark:text-zinc-200">{newer.summary}</span> : failed ? "a newer fact" : "…"}
    </p>
  );
}

export function FactItem({ memory }: { memory: FactWithDetails }) {
  const busy = useMemoryStore((s) => !!s.busy[memory.id]);
  const replacedBy = memory.fact.superseded_by;
  const until = memory.fact.valid_until;
  return (
    <li
      data-testid="fact"
      data-memory-id={memory.id}
      data-current={replacedBy ? "false" : "true"}
      className={`rounded-md border p-3 ${
        replacedBy ? "border-dashed border-zinc-300 bg-transparent dark:border-zinc-700" : "border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      }`}
    >
      <p
        data-testid="fact-text"
        className={`break-words text-sm ${replacedBy ? "text-zinc-500 dark:text-zinc-400" : "text-zinc-800 dark:text-zinc-200"}`}
      >
        {memory.summary}
      </p>
      {replacedBy && <ReplacedBy id={replacedBy} />}
      <Meta>
        <FactDetails memory={memory} />
        {until && <span title={new Date(until).toLocaleString()}>replaced {relativeTime(until)}</span>}
        {memory.pinned && <PinnedBadge />}
      </Meta>
      <div className="mt-2 flex flex-wrap gap-2">
        {/* Pinning keeps a fact from expiring; a replaced one is no longer used, so there is nothing to keep. */}
        {!replacedBy && <PinButton memory={memory} busy={busy} />}
        <DeleteControl memoryId={memory.id} busy={busy} />
      </div>
    </li>
  );
}
