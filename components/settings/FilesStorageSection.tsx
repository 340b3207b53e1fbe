"use client";
// What your attached files take on this server, against its quota.
import { useEffect, useId, useState } from "react";
import type { StorageUsageJson } from "@/lib/contract/files";
import { storageUsageText } from "@/lib/client/attachments";
import * as filesApi from "@/lib/client/api/files";
import { describeError } from "@/lib/client/api/http";

export function FilesStorageSection() {
  const [usage, setUsage] = useState<StorageUsageJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  useEffect(() => {
    const controller = new AbortController();
    filesApi
      .myFiles(controller.signal)
      .then((r) => setUsage(r.usage))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(describeError(err).message);
      });
    return () => controller.abort();
  }, []);

  const share = usage && usage.quota_bytes > 0 ? Math.min(1, usage.used_bytes / usage.quota_bytes) : 0;
  return (
    <section className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800" aria-labelledby={titleId} data-testid="files-storage">
      <h3 id={titleId} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Storage
      </h3>
      {usage ? (
        <>
          <p className="text-sm tabular-nums text-zinc-700 dark:text-zinc-300" data-testid="files-storage-text">
            {storageUsageText(usage)}
          </p>
          <div
            role="meter"
            aria-label="File storage used"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share * 100)}
            className="h-1.5 rounded-full bg-zinc-100 dark:bg-zinc-800"
          >
            <div className={`h-1.5 rounded-full ${share >= 0.9 ? "bg-red-500" : share >= 0.75 ? "bg-amber-400" : "bg-sky-500"}`} style={{ width: `${share * 100}%` }} />
          </div>
        </>
      ) : (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{error ? `Storage unavailable: ${error}` : "Loading…"}</p>
      )}
    </section>
  );
}
