"use client";
// The sessions, grouped as people scan them (Pinned, Today, Yesterday, Previous 7 days, …),
// forks under their source, archived ones folded away; a deleted session can be brought back
// for a few seconds.
import { useState } from "react";
import { ChevronRight } from "lucide-react";
import { groupSessions } from "@/lib/client/session-groups";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { SessionItem } from "@/components/sessions/SessionItem";

export function SessionList({ sending, onOpen }: { sending: boolean; onOpen(id: string): void }) {
  const sessions = useSessionsStore((s) => s.sessions);
  const loaded = useSessionsStore((s) => s.loaded);
  const error = useSessionsStore((s) => s.error);
  const [showArchived, setShowArchived] = useState(false);
  const groups = groupSessions(sessions, new Date());

  return (
    <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-4" data-testid="session-list">
      {loaded && sessions.length === 0 && !error && (
        <p className="px-2 py-2 text-xs text-zinc-600 dark:text-zinc-400">No sessions yet. Type a message to start one.</p>
      )}
      {groups.map((g) => {
        const archived = g.key === "archived";
        const headingId = `session-group-${g.key}`;
        return (
          <section key={g.key} aria-labelledby={headingId} data-testid="session-group" data-group={g.key}>
            {archived ? (
              <h3 id={headingId} className="px-1 pb-1 pt-3">
                <button
                  type="button"
                  data-testid="toggle-archived"
                  aria-expanded={showArchived}
                  onClick={() => setShowArchived((v) => !v)}
                  className="flex min-h-8 items-center gap-1 rounded px-1 text-[11px] font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
                >
                  <ChevronRight aria-hidden className={`h-3.5 w-3.5 transition-transform ${showArchived ? "rotate-90" : ""}`} />
                  Archived ({g.nodes.length})
                </button>
              </h3>
            ) : (
              <h3 id={headingId} className="px-2 pb-1 pt-3 text-[11px] font-medium text-zinc-600 dark:text-zinc-400">
                {g.label}
              </h3>
            )}
            {(!archived || showArchived) && (
              <ul className="space-y-0.5">
                {g.nodes.map((n) => (
                  <SessionItem key={n.session.id} node={n} sending={sending} onOpen={onOpen} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** "Deleted “…” · Undo" while a deleted session can still come back. */
export function DeletedSessionNotice() {
  const pending = useSessionsStore((s) => s.pendingDelete);
  const undo = useSessionsStore((s) => s.undoDelete);
  if (!pending) return null;
  return (
    <div role="status" data-testid="session-deleted" className="mx-2 mb-2 flex items-center gap-2 rounded-md bg-zinc-900 px-3 py-2 text-xs text-zinc-100 dark:bg-zinc-100 dark:text-zinc-900">
      <span className="min-w-0 flex-1 truncate">Deleted “{pending.title || "Untitled session"}”</span>
      <button type="button" data-testid="session-undo-delete" onClick={undo} className="min-h-8 rounded px-2 font-semibold underline-offset-2 hover:underline">
        Undo
      </button>
    </div>
  );
}
