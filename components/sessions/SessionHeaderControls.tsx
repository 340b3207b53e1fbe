"use client";
// Header extras for the open session: where a fork came from, its project, and the way
// into the checkpoint timeline.
import { useEffect } from "react";
import { History } from "lucide-react";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { useLaunchStore } from "@/lib/client/launch-store";
import { useCurrentSession, useSessionsStore } from "@/lib/client/sessions-store";

export function ForkedFromLink() {
  const session = useCurrentSession();
  const parent = useCheckpointsStore((s) => (s.detail && s.detail.session.id === session?.id ? s.detail.parent : null));
  if (!session?.parent_session_id || !parent) return null;
  return (
    <a
      href={`?session=${parent.id}`}
      data-testid="forked-from"
      data-session-id={parent.id}
      onClick={(e) => {
        e.preventDefault();
        useSessionsStore.getState().select(parent.id);
      }}
      className="block truncate text-xs text-sky-700 dark:text-sky-400 hover:underline"
    >
      Forked from {parent.title || "Untitled session"}
    </a>
  );
}

/** Assigns the open session to a project. */
export function ProjectSelect({ className = "" }: { className?: string }) {
  const session = useCurrentSession();
  const projects = useLaunchStore((s) => s.projects);

  useEffect(() => {
    void useLaunchStore.getState().loadProjects();
  }, []);

  if (!session) return null;
  return (
    <select
      data-testid="session-project"
      aria-label="Project"
      value={session.project_id ?? ""}
      onChange={(e) => void useLaunchStore.getState().assignProject(session.id, e.target.value || null)}
      className={`max-w-[10rem] @max-5xl:max-w-[8rem] @max-4xl:max-w-[7rem] rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 ${className}`}
    >
      <option value="">No project</option>
      {projects.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
}

/** Opens the checkpoint timeline; an icon with the count where the chat column is narrow. */
export function CheckpointsButton() {
  const session = useCurrentSession();
  const panelOpen = useCheckpointsStore((s) => s.panelOpen);
  const count = useCheckpointsStore((s) => (s.detail && s.detail.session.id === session?.id ? s.detail.checkpoints.length : null));
  return (
    <button
      type="button"
      data-testid="open-checkpoints"
      aria-pressed={panelOpen}
      onClick={() => useCheckpointsStore.getState().setPanelOpen(!panelOpen)}
      title="Checkpoints"
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-md border px-2 py-1 text-xs font-medium ${
        panelOpen
          ? "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950/40 dark:text-sky-300"
          : "border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800"
      }`}
    >
      <History aria-hidden className="h-3.5 w-3.5 @4xl:hidden" />
      <span className="@max-4xl:sr-only">Checkpoints</span>
      {count ? <span className="@max-4xl:hidden">{` (${count})`}</span> : null}
      {count ? (
        <span aria-hidden className="tabular-nums @4xl:hidden">
          {count}
        </span>
      ) : null}
    </button>
  );
}
