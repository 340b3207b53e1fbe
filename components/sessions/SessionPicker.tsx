"use client";
// "Continue a previous session or start new?": recent sessions with their last message,
// age, checkpoints and size; search by words, project and dates; projects are managed
// here too.
import { useEffect, useRef, useState } from "react";
import { Clock, Folder, X } from "lucide-react";
import type { SessionSummaryJson } from "@/lib/contract";
import { compactTokens, relativeTime } from "@/lib/client/format";
import { previewText } from "@/lib/client/message-text";
import { PICKER_LIMIT, useLaunchStore } from "@/lib/client/launch-store";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useDialogFocus } from "@/components/ui/useDialogFocus";
import { useEscapeKey } from "@/components/ui/useEscapeKey";

const SEARCH_DEBOUNCE_MS = 250;

export function SessionPicker() {
  const open = useLaunchStore((s) => s.pickerOpen);
  if (!open) return null;
  return <PickerDialog />;
}

function PickerDialog() {
  const rows = useLaunchStore((s) => s.rows);
  const loading = useLaunchStore((s) => s.rowsLoading);
  const error = useLaunchStore((s) => s.rowsError);
  const filter = useLaunchStore((s) => s.filter);
  const projects = useLaunchStore((s) => s.projects);
  const store = useLaunchStore.getState();
  const [query, setQuery] = useState(filter.q);
  const dialog = useRef<HTMLDivElement>(null);
  useEscapeKey(store.closePicker);
  const search = useRef<HTMLInputElement>(null);
  useDialogFocus(dialog, search);

  // Typing waits for a pause before searching; the other filters apply at once.
  useEffect(() => {
    if (query === useLaunchStore.getState().filter.q) return;
    const t = setTimeout(() => {
      useLaunchStore.getState().setFilter({ q: query, limit: PICKER_LIMIT });
      void useLaunchStore.getState().loadRows();
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);

  const applyFilter = (patch: Parameters<typeof store.setFilter>[0]) => {
    store.setFilter(patch);
    void store.loadRows();
  };

  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-zinc-900/30 dark:bg-black/60 p-4 sm:pt-16">
      <div
        ref={dialog}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="picker-title"
        data-testid="session-picker"
        className="w-full max-w-2xl rounded-xl border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 shadow-2xl"
      >
        <div className="flex items-center justify-between border-b border-zinc-200 dark:border-zinc-800 px-5 py-3">
          <h2 id="picker-title" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
            Resume Session
          </h2>
          <button
            type="button"
            aria-label="Close"
            data-testid="picker-close"
            onClick={() => store.closePicker()}
            className="rounded px-1.5 text-zinc-500 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800"
          >
            <X aria-hidden className="h-4 w-4" />
          </button>
        </div>
        <div className="space-y-2 border-b border-zinc-100 dark:border-zinc-800 px-5 py-3">
          <div className="flex flex-wrap gap-2">
            <input
              ref={search}
              type="search"
              data-testid="picker-search"
              aria-label="Search sessions"
              placeholder="Search titles and messages…"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className="min-w-[12rem] flex-1 rounded-md border border-zinc-300 dark:border-zinc-700 px-2.5 py-1.5 text-sm outline-none focus:border-zinc-400 dark:focus:border-zinc-600 focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
            />
            <select
              data-testid="picker-project"
              aria-label="Filter by project"
              value={filter.projectId}
              onChange={(e) => applyFilter({ projectId: e.target.value, limit: PICKER_LIMIT })}
              className="rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-1.5 text-sm text-zinc-700 dark:text-zinc-300"
            >
              <option value="">All projects</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
            <DateInput label="From" testId="picker-from" value={filter.from} onChange={(from) => applyFilter({ from })} />
            <DateInput label="To" testId="picker-to" value={filter.to} onChange={(to) => applyFilter({ to })} />
            <ProjectManager />
          </div>
        </div>
        {error && (
          <p role="alert" className="mx-5 mt-3 rounded-md bg-red-50 dark:bg-red-950/40 px-2 py-1.5 text-xs text-red-800 dark:text-red-300">
            {error}
          </p>
        )}
        <div className="max-h-[55vh] overflow-y-auto px-5 py-3">
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Recent sessions</h3>
          {!loading && rows.length === 0 && !error && (
            <p className="py-4 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="picker-empty">
              {filter.q || filter.projectId || filter.from || filter.to
                ? "No sessions match."
                : "No sessions yet: start one and it will be here next time."}
            </p>
          )}
          <ul className="space-y-2" data-testid="picker-list" aria-busy={loading}>
            {rows.map((r) => (
              <PickerRow key={r.id} row={r} />
            ))}
          </ul>
        </div>
        <div className="flex items-center justify-between border-t border-zinc-200 dark:border-zinc-800 px-5 py-3">
          <button
            type="button"
            data-testid="picker-new"
            onClick={() => {
              store.closePicker();
              useSessionsStore.getState().select(null);
            }}
            className="rounded-md bg-zinc-900 dark:bg-zinc-100 px-3 py-1.5 text-sm font-medium text-white dark:text-zinc-900 hover:bg-zinc-700 dark:hover:bg-zinc-300"
          >
            Start new session
          </button>
          {rows.length >= filter.limit && (
            <button
              type="button"
              data-testid="picker-more"
              onClick={() => applyFilter({ limit: 200 })}
              className="rounded-md border border-zinc-300 dark:border-zinc-700 px-3 py-1.5 text-sm text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800"
            >
              View all sessions
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

function DateInput({
  label,
  testId,
  value,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <label className="flex items-center gap-1">
      {label}
      <input
        type="date"
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded border border-zinc-300 dark:border-zinc-700 px-1.5 py-0.5"
      />
    </label>
  );
}

function PickerRow({ row }: { row: SessionSummaryJson }) {
  const store = useLaunchStore.getState();
  const when = row.last_message_at ?? row.updated_at;
  return (
    <li data-testid="picker-row" data-session-id={row.id} className="rounded-lg border border-zinc-200 dark:border-zinc-800 p-3 hover:border-zinc-300 dark:hover:border-zinc-700">
      <div className="flex items-baseline gap-2">
        <Folder aria-hidden className="h-4 w-4 shrink-0 translate-y-0.5 text-zinc-400 dark:text-zinc-500" />
        <span className="min-w-0 truncate text-sm font-medium text-zinc-900 dark:text-zinc-100" data-testid="picker-title">
          {row.project_name ? `${row.project_name} - ` : ""}
          {row.title || "Untitled session"}
        </span>
      </div>
      {row.last_message_preview && (
        <p className="mt-0.5 truncate pl-6 text-xs text-zinc-600 dark:text-zinc-400">Last: &ldquo;{previewText(row.last_message_preview)}&rdquo;</p>
      )}
      <p className="mt-0.5 pl-6 text-[11px] text-zinc-500 dark:text-zinc-400">
        <Clock aria-hidden className="mr-1 inline h-3 w-3 -translate-y-px" />
        {relativeTime(when)} • {row.checkpoint_count} checkpoint{row.checkpoint_count === 1 ? "" : "s"} •{" "}
        {compactTokens(row.current_tokens)} tokens
      </p>
      <div className="mt-2 flex gap-2 pl-6">
        <button
          type="button"
          data-testid="picker-resume"
          onClick={() => void store.openSession(row.id, { resume: true })}
          className="rounded-md bg-zinc-900 dark:bg-zinc-100 px-2.5 py-1 text-xs font-medium text-white dark:text-zinc-900 hover:bg-zinc-700 dark:hover:bg-zinc-300"
        >
          Resume Latest
        </button>
        <button
          type="button"
          data-testid="picker-browse"
          onClick={() => void store.openSession(row.id, { browse: true })}
          className="rounded-md border border-zinc-300 dark:border-zinc-700 px-2.5 py-1 text-xs text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800"
        >
          Browse Checkpoints
        </button>
      </div>
    </li>
  );
}

/** New project, and rename/delete of the one the picker is filtered by. */
function ProjectManager() {
  const [name, setName] = useState("");
  const projectError = useLaunchStore((s) => s.projectError);
  const selectedId = useLaunchStore((s) => s.filter.projectId);
  const selected = useLaunchStore((s) => s.projects.find((p) => p.id === s.filter.projectId) ?? null);
  const store = useLaunchStore.getState();

  return (
    <div className="ml-auto flex flex-wrap items-center gap-1">
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          void store.createProject(name).then((p) => {
            if (p) setName("");
          });
        }}
      >
        <input
          data-testid="project-new"
          aria-label="New project name"
          placeholder="New project"
          value={name}
          onChange={(e) => setName(e.target.value)}
          className="w-32 rounded border border-zinc-300 dark:border-zinc-700 px-1.5 py-0.5"
        />
        <button
          type="submit"
          data-testid="project-create"
          disabled={!name.trim()}
          className="rounded border border-zinc-300 dark:border-zinc-700 px-1.5 py-0.5 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50"
        >
          Add
        </button>
      </form>
      {selected && (
        <>
          <button
            type="button"
            data-testid="project-rename"
            onClick={() => {
              const next = window.prompt("Rename project", selected.name);
              if (next && next.trim() && next.trim() !== selected.name) void store.renameProject(selectedId, next);
            }}
            className="rounded border border-zinc-300 dark:border-zinc-700 px-1.5 py-0.5 hover:bg-zinc-50 dark:hover:bg-zinc-800"
          >
            Rename
          </button>
          <button
            type="button"
            data-testid="project-delete"
            onClick={() => {
              if (window.confirm(`Delete project "${selected.name}"? Its sessions are kept.`)) void store.deleteProject(selectedId);
            }}
            className="rounded border border-zinc-300 dark:border-zinc-700 px-1.5 py-0.5 text-red-700 dark:text-red-400 hover:bg-red-50 dark:hover:bg-red-950/40"
          >
            Delete
          </button>
        </>
      )}
      {projectError && (
        <span role="alert" data-testid="project-error" className="basis-full text-right text-red-700 dark:text-red-400">
          {projectError}
        </span>
      )}
    </div>
  );
}
