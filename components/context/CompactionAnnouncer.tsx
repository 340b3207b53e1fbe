"use client";
// After a compaction asked for (/compact, or "Compact now" on the token bar): its divider is
// brought into view and the result is read out, so the user sees where the summary went
// rather than only a smaller number on the bar. The automatic one after a reply moves nothing.
import { useEffect, useRef, useState } from "react";
import { listNavigator } from "@/lib/client/list-navigator";
import { useConversationStore } from "@/lib/client/conversation-store";
import { exactTokens } from "@/lib/client/format";

/** The divider of compaction `id`, wherever the message list put it. */
function dividerOf(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="compaction-divider"][data-compaction-id="${CSS.escape(id)}"]`);
}

export function CompactionAnnouncer() {
  const compacting = useConversationStore((s) => s.compacting);
  const compactions = useConversationStore((s) => s.compactions);
  const sessionId = useConversationStore((s) => s.sessionId);
  const [message, setMessage] = useState("");
  // The compactions there were when the request started; the new one is the one not among them.
  const before = useRef<Set<string> | null>(null);
  const wasCompacting = useRef(false);

  useEffect(() => {
    setMessage("");
    before.current = null;
  }, [sessionId]);

  useEffect(() => {
    // Taken once, as the request starts: the list grows while it is still running.
    const started = compacting && !wasCompacting.current;
    wasCompacting.current = compacting;
    if (started) before.current = new Set(useConversationStore.getState().compactions.map((c) => c.id));
    if (compacting) return;
    const known = before.current;
    const fresh = known && compactions.find((c) => !known.has(c.id) && c.status === "applied");
    if (!fresh) return;
    before.current = null;
    setMessage(
      `Context condensed: ${exactTokens(fresh.pre_tokens)} → ${exactTokens(fresh.post_tokens)} tokens. ` +
        "The summary's divider is in the conversation, with Undo.",
    );
    // After the list has rendered the divider (and settled its own scroll after the refresh). The
    // list draws only the rows near the view: when the divider's row is not drawn, the list is
    // asked to draw the message it follows first.
    let timer = window.setTimeout(() => {
      const divider = dividerOf(fresh.id);
      if (divider) return divider.scrollIntoView({ block: "center" });
      listNavigator()?.showSeq(fresh.at_seq);
      timer = window.setTimeout(() => dividerOf(fresh.id)?.scrollIntoView({ block: "center" }), 150);
    }, 150);
    return () => window.clearTimeout(timer);
  }, [compacting, compactions]);

  return (
    <p role="status" aria-live="polite" className="sr-only" data-testid="compaction-announcement">
      {message}
    </p>
  );
}
