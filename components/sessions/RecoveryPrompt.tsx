"use client";
// After a crash: offer to resume the cut-off session from its latest checkpoint. Resume
// reopens it and has the cut-off message answered again; the partial reply stays.
import { useRef } from "react";
import type { RecoveryJson } from "@/lib/contract";
import { useLaunchStore } from "@/lib/client/launch-store";
import { useDialogFocus } from "@/components/ui/useDialogFocus";
import { relativeTime } from "@/lib/client/format";
import { previewText } from "@/lib/client/message-text";

export function RecoveryPrompt() {
  const recovery = useLaunchStore((s) => s.recovery);
  if (!recovery?.needed || !recovery.session) return null;
  return <RecoveryDialog recovery={recovery} session={recovery.session} />;
}

function RecoveryDialog({ recovery, session }: { recovery: RecoveryJson; session: NonNullable<RecoveryJson["session"]> }) {
  const busy = useLaunchStore((s) => s.recoveryBusy);
  const error = useLaunchStore((s) => s.recoveryError);
  const dialog = useRef<HTMLDivElement>(null);
  const resume = useRef<HTMLButtonElement>(null);
  useDialogFocus(dialog, resume);
  const { checkpoint, interrupted_message: interrupted } = recovery;
  const when = checkpoint?.created_at ?? interrupted?.created_at ?? session.updated_at;
  const store = useLaunchStore.getState();

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-zinc-900/30 dark:bg-black/60 p-4">
      <div
        ref={dialog}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="recovery-title"
        data-testid="recovery-prompt"
        className="w-full max-w-md rounded-xl border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 p-5 shadow-2xl"
      >
        <h2 id="recovery-title" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
          Resume from checkpoint?
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300" data-testid="recovery-summary">
          <span title={new Date(when).toLocaleString()}>{relativeTime(when)}</span>
          {checkpoint ? (
            <>
              {" — "}
              <span data-testid="recovery-label" className="font-medium">
                &apos;{checkpoint.name}&apos;
              </span>
            </>
          ) : (
            " — the reply was interrupted"
          )}
        </p>
        <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
          A reply in <span className="font-medium text-zinc-700 dark:text-zinc-300">{session.title || "Untitled session"}</span> was cut off
          when the app stopped. Resuming keeps what arrived and asks Claude to answer that message again.
        </p>
        {interrupted?.text && (
          <blockquote className="mt-2 line-clamp-3 border-l-2 border-amber-300 dark:border-amber-800 pl-2 text-xs italic text-zinc-600 dark:text-zinc-400">
            {previewText(interrupted.text)}
          </blockquote>
        )}
        {error && (
          <p role="alert" className="mt-2 rounded-md bg-red-50 dark:bg-red-950/40 px-2 py-1.5 text-xs text-red-800 dark:text-red-300">
            {error}
          </p>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            data-testid="recovery-dismiss"
            onClick={() => void store.dismissRecovery()}
            disabled={busy}
            className="rounded-md px-3 py-1.5 text-sm text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-50"
          >
            Dismiss
          </button>
          <button
            type="button"
            data-testid="recovery-browse"
            onClick={() => void store.browseRecovery()}
            disabled={busy}
            className="rounded-md border border-zinc-300 dark:border-zinc-700 px-3 py-1.5 text-sm text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50"
          >
            Browse checkpoints
          </button>
          <button
            type="button"
            data-testid="recovery-resume"
            onClick={() => void store.resumeRecovery()}
            ref={resume}
            disabled={busy}
            className="rounded-md bg-zinc-900 dark:bg-zinc-100 px-3 py-1.5 text-sm font-medium text-white dark:text-zinc-900 hover:bg-zinc-700 dark:hover:bg-zinc-300 disabled:opacity-50"
          >
            {busy ? "Resuming…" : "Resume"}
          </button>
        </div>
      </div>
    </div>
  );
}
