"use client";
// Import conversations from ChatGPT, Claude.ai and Claude Code: files dropped or chosen, each
// with a progress bar from its upload to the end of its reading, its counts and what failed;
// and everything exported as one ZIP.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Upload } from "lucide-react";
import type { ImportJson } from "@/lib/contract/imports";
import * as importsApi from "@/lib/client/api/imports";
import { describeError } from "@/lib/client/api/http";
import { archivePhase, canArchive, importCounts, importPhase, importShare } from "@/lib/client/imports";
import { downloadFrom } from "@/lib/client/download";
import { useSessionsStore } from "@/lib/client/sessions-store";

interface Item {
  key: string;
  name: string;
  uploaded: number;
  job: ImportJson | null;
  error: string | null;
}

const POLL_MS = 1_000;

export function ImportSection() {
  const titleId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [earlier, setEarlier] = useState<ImportJson[]>([]);
  const [dragging, setDragging] = useState(false);
  const update = useCallback((key: string, patch: Partial<Item>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i))), []);

  useEffect(() => {
    const controller = new AbortController();
    importsApi.listImports(controller.signal).then((jobs) => {
      // Still under way (another tab started it, or before a reload): followed in the list above.
      const live = jobs.filter((j) => j.status === "running" || j.archive?.status === "running");
      setItems((all) => [...all, ...live.filter((j) => !all.some((i) => i.job?.id === j.id)).map((j) => ({ key: j.id, name: j.file_name ?? "Export file", uploaded: 1, job: j, error: null }))]);
      setEarlier(jobs);
    }, () => {});
    return () => controller.abort();
  }, []);

  const running = items.filter((i) => i.job?.status === "running" || i.job?.archive?.status === "running");
  useEffect(() => {
    if (running.length === 0) return;
    const timer = setTimeout(async () => {
      for (const item of running) {
        try {
          const job = await importsApi.getImport(item.job!.id);
          update(item.key, { job });
          const ended = (item.job?.status === "running" && job.status !== "running") || (item.job?.archive?.status === "running" && job.archive?.status !== "running");
          if (ended) void useSessionsStore.getState().load();
        } catch (err) {
          update(item.key, { error: describeError(err).message });
        }
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, update]);

  const start = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const key = `${file.name}-${Date.now()}-${Math.random()}`;
      setItems((all) => [{ key, name: file.name, uploaded: 0, job: null, error: null }, ...all]);
      importsApi.uploadExport(file, (uploaded) => update(key, { uploaded })).then(
        (job) => update(key, { job, uploaded: 1 }),
        (err: unknown) => update(key, { error: describeError(err).message }),
      );
    }
  };

  const archive = async (key: string, job: ImportJson) => {
    try {
      const next = await importsApi.archiveImport(job.id);
      // An earlier import joins the list above, where its progress is followed.
      setItems((all) => (all.some((i) => i.key === key) ? all.map((i) => (i.key === key ? { ...i, job: next, error: null } : i)) : [{ key, name: job.file_name ?? "Export file", uploaded: 1, job: next, error: null }, ...all]));
    } catch (err) {
      update(key, { error: describeError(err).message });
    }
  };
  const cancel = async (key: string, job: ImportJson) => {
    try {
      update(key, { job: await importsApi.cancelImport(job.id) });
    } catch (err) {
      update(key, { error: describeError(err).message });
    }
  };

  const shownIds = new Set(items.map((i) => i.job?.id));
  return (
    <section className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800" aria-labelledby={titleId} data-testid="import-section">
      <h3 id={titleId} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Import and export
      </h3>
      <p className="text-xs leading-relaxed text-zinc-600 dark:text-zinc-400">
        Bring your history from ChatGPT, Claude.ai or Claude Code: the export&apos;s ZIP, its conversations.json, or .jsonl transcripts. Each
        conversation becomes a session with its dates, searchable; importing a file again adds nothing.
      </p>
      <div
        data-testid="import-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          start(e.dataTransfer.files);
        }}
        className={`flex flex-col items-center gap-2 rounded-lg border border-dashed px-3 py-4 text-center text-sm ${
          dragging ? "border-sky-500 bg-sky-50 dark:bg-sky-950/40" : "border-zinc-300 dark:border-zinc-700"
        }`}
      >
        <Upload aria-hidden className="h-5 w-5 text-zinc-500 dark:text-zinc-400" />
        <span className="text-zinc-700 dark:text-zinc-300">Drop export files here, or</span>
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          Choose files
        </button>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept=".zip,.json,.jsonl,application/zip,application/json"
          className="sr-only"
          data-testid="import-file-input"
          aria-label="Export files to import"
          onChange={(e) => {
            start(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      <ul className="flex flex-col gap-2" aria-live="polite">
        {items.map((item) => (
          <ImportItem
            key={item.key}
            name={item.name}
            job={item.job}
            uploaded={item.uploaded}
            error={item.error}
            onCancel={() => item.job && void cancel(item.key, item.job)}
            onArchive={() => item.job && void archive(item.key, item.job)}
          />
        ))}
      </ul>
      <button
        type="button"
        data-testid="export-everything"
        onClick={() => downloadFrom("/api/export")}
        className="self-start text-left text-sm text-sky-700 hover:underline dark:text-sky-400"
      >
        Export everything (a ZIP of every session, memory and file)
      </button>
      {earlier.filter((j) => !shownIds.has(j.id)).length > 0 && (
        <details className="text-xs text-zinc-600 dark:text-zinc-400">
          <summary className="cursor-pointer">Earlier imports</summary>
          <ul className="mt-2 flex flex-col gap-2">
            {earlier
              .filter((j) => !shownIds.has(j.id))
              .map((j) => (
                <ImportItem key={j.id} name={j.file_name ?? "Export file"} job={j} uploaded={1} error={null} onArchive={() => void archive(j.id, j)} />
              ))}
          </ul>
        </details>
      )}
    </section>
  );
}

interface ItemProps {
  name: string;
  job: ImportJson | null;
  uploaded: number;
  error: string | null;
  onCancel?: () => void;
  onArchive?: () => void;
}

function ImportItem({ name, job, uploaded, error, onCancel, onArchive }: ItemProps) {
  const share = importShare(job, uploaded);
  const failed = error !== null || job?.status === "failed";
  return (
    <li className="flex flex-col gap-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-testid="import-item" data-status={error ? "error" : (job?.status ?? "uploading")}>
      <div className="flex items-center gap-2 text-sm">
        <span className="min-w-0 flex-1 truncate text-zinc-800 dark:text-zinc-200">{name}</span>
        {(job?.status === "running" || job?.archive?.status === "running") && onCancel && (
          <button type="button" onClick={onCancel} className="text-xs text-zinc-600 hover:underline dark:text-zinc-400">
            Cancel
          </button>
        )}
      </div>
      <div
        role="progressbar"
        aria-label={`Import of ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        className="h-1.5 rounded-full bg-zinc-100 dark:bg-zinc-800"
      >
        <div className={`h-1.5 rounded-full ${failed ? "bg-red-500" : "bg-sky-500"}`} style={{ width: `${share * 100}%` }} />
      </div>
      <p className={`text-xs ${failed ? "text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400"}`} data-testid="import-phase">
        {importPhase(job, uploaded, error)}
      </p>
      {job && (job.imported > 0 || job.skipped > 0 || job.failed > 0 || job.format) && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="import-counts">
          {importCounts(job)}
        </p>
      )}
      {job && <ArchiveOffer job={job} onArchive={onArchive} />}
      {job && job.errors.length > 0 && (
        <details className="text-xs text-zinc-600 dark:text-zinc-400">
          <summary className="cursor-pointer">What failed</summary>
          <ul className="mt-1 list-disc pl-4">
            {job.errors.map((e, i) => (
              <li key={`${e.source_id}-${i}`}>
                {e.title ?? e.source_id}: {e.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** Once an import has stored conversations: archive them into memories, then how far that got. */
function ArchiveOffer({ job, onArchive }: { job: ImportJson; onArchive?: () => void }) {
  const a = job.archive;
  return (
    <div className="flex flex-col gap-1" data-testid="import-archive" data-status={a?.status ?? "offered"}>
      {a && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="import-archive-phase">
          {archivePhase(a)}
        </p>
      )}
      {a?.status === "running" && (
        <div
          role="progressbar"
          aria-label={`Archiving ${name(job)} into memories`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={a.total > 0 ? Math.round((100 * (a.archived + a.failed)) / a.total) : 0}
          className="h-1 rounded-full bg-zinc-100 dark:bg-zinc-800"
        >
          <div className="h-1 rounded-full bg-emerald-500" style={{ width: `${a.total > 0 ? (100 * (a.archived + a.failed)) / a.total : 0}%` }} />
        </div>
      )}
      {onArchive && canArchive(job) && (
        <div className="flex flex-col items-start gap-1.5 rounded-md bg-zinc-50 px-2 py-2 text-xs text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
          <span>
            {job.imported === 1 ? "Archive this conversation into memories, so new chats can recall it." : `Archive these ${job.imported.toLocaleString("en")} conversations into memories, so new chats can recall them.`}{" "}
            <span className="text-zinc-600 dark:text-zinc-400">One summary each, by Claude Haiku when a key is set.</span>
          </span>
          <button
            type="button"
            onClick={onArchive}
            data-testid="import-archive-button"
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            {a ? "Archive the rest" : "Archive into memories"}
          </button>
        </div>
      )}
    </div>
  );
}

const name = (job: ImportJson) => job.file_name ?? "the import";
