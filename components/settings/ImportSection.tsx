"use client";
// Import conversations from ChatGPT, Claude.ai and Claude Code: files dropped or chosen, each
// with a progress bar from its upload to the end of its reading, its counts and what failed;
// and everything exported as one ZIP.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Upload } from "lucide-react";
import type { ImportJson } from "@/lib/contract/imports";
import * as importsApi from "@/lib/client/api/imports";
import { describeError } from "@/lib/client/api/http";
import { importCounts, importPhase, importShare } from "@/lib/client/imports";
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
    importsApi.listImports(controller.signal).then(setEarlier, () => {});
    return () => controller.abort();
  }, []);

  const running = items.filter((i) => i.job?.status === "running");
  useEffect(() => {
    if (running.length === 0) return;
    const timer = setTimeout(async () => {
      for (const item of running) {
        try {
          const job = await importsApi.getImport(item.job!.id);
          update(item.key, { job });
          if (job.status !== "running") void useSessionsStore.getState().load();
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
          <ImportItem key={item.key} name={item.name} job={item.job} uploaded={item.uploaded} error={item.error} onCancel={async () => item.job && update(item.key, { job: await importsApi.cancelImport(item.job.id) })} />
        ))}
      </ul>
      <button
        type="button"
        data-testid="export-everything"
        onClick={() => downloadFrom("/api/export")}
        className="self-start text-sm text-sky-700 hover:underline dark:text-sky-400"
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
                <ImportItem key={j.id} name={j.file_name ?? "Export file"} job={j} uploaded={1} error={null} />
              ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function ImportItem({ name, job, uploaded, error, onCancel }: { name: string; job: ImportJson | null; uploaded: number; error: string | null; onCancel?: () => void }) {
  const share = importShare(job, uploaded);
  const failed = error !== null || job?.status === "failed";
  return (
    <li className="flex flex-col gap-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-testid="import-item" data-status={error ? "error" : (job?.status ?? "uploading")}>
      <div className="flex items-center gap-2 text-sm">
        <span className="min-w-0 flex-1 truncate text-zinc-800 dark:text-zinc-200">{name}</span>
        {job?.status === "running" && onCancel && (
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
