"use client";
// The composer's button: Send, or Stop while Claude writes (Esc stops too). A stop keeps what
// was written, marked interrupted, so nothing is lost by pressing it.
import { useEffect } from "react";
import { Loader2, SendHorizontal, Square } from "lucide-react";
import { useConversationStore } from "@/lib/client/conversation-store";

const BUTTON =
  "inline-flex items-center gap-1.5 rounded-lg px-4 py-2 text-sm font-medium disabled:cursor-not-allowed focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-500";

/** `waitReason`: why it cannot send yet (files still uploading), said on the button and beside it. */
export function SendButton({ canSend, waitReason = null, describedBy }: { canSend: boolean; waitReason?: string | null; describedBy?: string }) {
  const phase = useConversationStore((s) => s.phase);
  const compacting = useConversationStore((s) => s.compacting);
  const stopping = useConversationStore((s) => s.stopping);
  const stop = useConversationStore((s) => s.stop);
  const replying = !compacting && (phase === "sending" || phase === "streaming");

  useEffect(() => {
    if (!replying) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) void stop();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [replying, stop]);

  if (replying) {
    return (
      <button
        type="button"
        data-testid="stop-button"
        onClick={() => void stop()}
        disabled={stopping}
        title="Stop the reply (Esc)"
        className={`${BUTTON} border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-60`}
      >
        {stopping ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : <Square aria-hidden className="h-3.5 w-3.5 fill-current" />}
        {stopping ? "Stopping…" : "Stop"}
      </button>
    );
  }
  const busy = phase !== "idle" || compacting;
  return (
    <button
      type="submit"
      data-testid="send-button"
      disabled={busy || !canSend || waitReason !== null}
      title={waitReason ?? undefined}
      aria-describedby={describedBy}
      className={`${BUTTON} bg-zinc-900 text-white hover:bg-zinc-700 disabled:bg-zinc-300 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500`}
    >
      {compacting ? "Condensing…" : busy ? "Sending…" : "Send"}
      {!busy && <SendHorizontal aria-hidden className="h-4 w-4" />}
    </button>
  );
}
