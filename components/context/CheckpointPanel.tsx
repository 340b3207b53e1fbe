"use client";
// The checkpoint timeline of the open session (newest first): label, tags, tokens and
// age, a preview of the last messages on hover or focus, "Resume in a new fork" (forks a new
// session at the checkpoint) and Delete. Forks made from this session are listed below.
import { useEffect, useState } from "react";
import { CornerDownRight, X } from "lucide-react";
import type { CheckpointJson } from "@/lib/contract";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { compactTokens, relativeTime } from "@/lib/client/format";
import { previewText } from "@/lib/client/message-text";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useEscapeKey } from "@/components/ui/useEscapeKey";

/** Keeps the timeline in step with the open session; shows the panel when it is toggled on. */
export function CheckpointPanel() {
  const currentId = useSessionsStore((s) => s.currentId);
  const open = useCheckpointsStore((s) => s.panelOpen);

  useEffect(() => {
    void useCheckpointsStore.getState().load(currentId);
  }, [currentId]);

  if (!open) return null;
  return <PanelBody />;
}

const closePanel = () => useCheckpointsStore.getState().setPanelOpen(false);

function PanelBody() {
  useEscapeKey(closePanel);
  const detail = useCheckpointsStore((s) => s.detail);
  const loading = useCheckpointsStore((s) => s.loading);
  const error = useCheckpointsStore((s) => s.error);
  const currentId = useSessionsStore((s) => s.currentId);
  const select = useSessionsStore((s) => s.select);
  const checkpoints = detail?.checkpoints ?? [];
  const forks = detail?.forks ?? [];

  return (
    <aside
      data-testid="checkpoint-panel"
      aria-label="Checkpoints"
      className="flex w-80 shrink-0 flex-col border-l border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 max-md:fixed max-md:inset-y-0 max-md:right-0 max-md:z-30 max-md:shadow-xl"
    >
      <div className="flex items-center justify-between border-b border-zinc-200 dark:border-zinc-800 px-4 py-2.5">
        <h2 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">Checkpoints</h2>
        <button
          type="button"
          aria-label="Close checkpoints"
          onClick={closePanel}
          className="rounded px-1.5 text-zinc-500 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      </div>
      {error && (
        <p role="alert" className="mx-3 mt-2 rounded-md bg-red-50 dark:bg-red-950/40 px-2 py-1.5 text-xs text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex-1 overflow-y-auto px-3 py-3">
        {!currentId && <p className="px-1 text-xs text-zinc-500 dark:text-zinc-400">Open a session to see its checkpoints.</p>}
        {currentId && loading && !detail && <p className="px-1 text-xs text-zinc-500 dark:text-zinc-400">Loading…</p>}
        {currentId && detail && checkpoints.length === 0 && (
          <p className="px-1 text-xs text-zinc-500 dark:text-zinc-400">
            No checkpoints yet. Type <code className="font-mono">/save-progress &quot;label&quot;</code> to save one.
          </p>
        )}
        <ol className="relative space-y-3 border-l border-zinc-200 dark:border-zinc-800 pl-4" data-testid="checkpoint-list">
          {runsOf(checkpoints).map((run) =>
            run.length > 1 ? <AutomaticRun key={run[0].id} run={run} /> : <CheckpointItem key={run[0].id} checkpoint={run[0]} />,
          )}
        </ol>
        {forks.length > 0 && (
          <section className="mt-5" data-testid="fork-list">
            <h3 className="mb-1.5 px-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Forks</h3>
            <ul className="space-y-1">
              {forks.map((f) => (
                <li key={f.id}>
                  <a
                    href={`?session=${f.id}`}
                    data-testid="fork-link"
                    data-session-id={f.id}
                    onClick={(e) => {
                      e.preventDefault();
                      select(f.id);
                    }}
                    className="block truncate rounded px-1 py-0.5 text-sm text-sky-700 dark:text-sky-400 hover:bg-sky-50 dark:hover:bg-sky-950/40 hover:underline"
                  >
                    <CornerDownRight aria-hidden className="mr-1 inline h-3.5 w-3.5 -translate-y-px" />
                    {f.title || "Untitled session"}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </aside>
  );
}

const automatic = (c: CheckpointJson) => c.trigger !== "manual";

/** Saved by hand stands alone; consecutive automatic ones form a run. */
function runsOf(checkpoints: CheckpointJson[]): CheckpointJson[][] {
  const runs: CheckpointJson[][] = [];
  for (const c of checkpoints) {
    const last = runs.at(-1);
    if (last && automatic(c) && automatic(last[0])) last.push(c);
    else runs.push([c]);
  }
  return runs;
}

/** The newest of a run of automatic checkpoints, the others folded behind "N earlier". */
function AutomaticRun({ run }: { run: CheckpointJson[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <CheckpointItem checkpoint={run[0]} />
      <li>
        <button
          type="button"
          data-testid="checkpoint-run-toggle"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="min-h-8 rounded px-1 text-xs text-zinc-500 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
        >
          {open ? "Hide" : "Show"} {run.length - 1} earlier automatic checkpoint{run.length === 2 ? "" : "s"}
        </button>
      </li>
      {open && run.slice(1).map((c) => <CheckpointItem key={c.id} checkpoint={c} />)}
    </>
  );
}

function CheckpointItem({ checkpoint: c }: { checkpoint: CheckpointJson }) {
  const busy = useCheckpointsStore((s) => !!s.busy[c.id]);
  const sending = useConversationStore((s) => s.phase !== "idle");
  const [showPreview, setShowPreview] = useState(false);
  const tags = c.auto_tags.length > 0 ? c.auto_tags : c.trigger === "manual" ? [] : [c.trigger];
  const quiet = automatic(c);

  return (
    <li
      data-testid="checkpoint-item"
      data-checkpoint-id={c.id}
      data-automatic={quiet || undefined}
      className={`relative rounded-lg p-2.5 text-sm ${quiet ? "" : "border border-zinc-200 bg-zinc-50/60 dark:border-zinc-800 dark:bg-zinc-800/40"}`}
      onMouseEnter={() => setShowPreview(true)}
      onMouseLeave={() => setShowPreview(false)}
      onFocus={() => setShowPreview(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setShowPreview(false);
      }}
    >
      <span
        aria-hidden
        className={`absolute -left-[1.3rem] top-3.5 h-2 w-2 rounded-full ring-2 ring-white dark:ring-zinc-900 ${quiet ? "bg-zinc-300 dark:bg-zinc-600" : "bg-sky-500"}`}
      />
      <div className="flex items-baseline justify-between gap-2">
        <span
          className={`min-w-0 truncate ${quiet ? "text-zinc-700 dark:text-zinc-300" : "font-medium text-zinc-900 dark:text-zinc-100"}`}
          data-testid="checkpoint-label"
          title={c.name}
          tabIndex={0}
        >
          {c.name}
        </span>
        <time className="shrink-0 text-[11px] text-zinc-500 dark:text-zinc-400" dateTime={c.created_at} title={new Date(c.created_at).toLocaleString()}>
          {relativeTime(c.created_at)}
        </time>
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-1">
        {tags.map((t) => (
          <span key={t} data-testid="checkpoint-tag" className="rounded bg-sky-100 dark:bg-sky-900/40 px-1.5 py-0.5 text-[10px] font-medium text-sky-800 dark:text-sky-300">
            {t.replace(/_/g, "-")}
          </span>
        ))}
        <span className="text-[11px] text-zinc-500 dark:text-zinc-400" data-testid="checkpoint-tokens">
          {compactTokens(c.token_count)} tokens · turn {c.through_turn}
        </span>
      </div>
      {showPreview && c.preview.length > 0 && (
        // Floats below the item: an inline preview would push the buttons down under the pointer.
        <div
          data-testid="checkpoint-preview"
          className="pointer-events-none absolute left-2 right-2 top-full z-20 mt-1 space-y-1 rounded-md border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 p-2 text-xs text-zinc-700 dark:text-zinc-300 shadow-lg"
        >
          {c.preview.map((p, i) => (
            <p key={i} className="line-clamp-3">
              <span className="font-semibold text-zinc-500 dark:text-zinc-400">{p.role === "user" ? "You" : "Claude"}:</span> {p.role === "user" ? p.text : previewText(p.text)}
            </p>
          ))}
        </div>
      )}
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          data-testid="checkpoint-resume"
          disabled={busy || sending}
          onClick={() => void useCheckpointsStore.getState().restore(c)}
          // Resuming never rewinds this session: it opens a new one, and says so before the click.
          title="Opens a new session (a fork) from this checkpoint; this session stays as it is"
          className="min-h-8 rounded-md border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-800 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          Resume in a new fork
        </button>
        <button
          type="button"
          data-testid="checkpoint-delete"
          disabled={busy}
          onClick={() => void useCheckpointsStore.getState().remove(c)}
          className="min-h-8 rounded-md px-2.5 py-1 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-red-700 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-red-400"
        >
          Delete
        </button>
      </div>
    </li>
  );
}
