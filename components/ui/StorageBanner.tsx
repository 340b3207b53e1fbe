"use client";
// Warns before the server's disk fills (and says so once it has): a full disk means nothing
// more can be saved, and the person should hear it from the app before a send fails.
import { useEffect, useState } from "react";
import { HardDrive } from "lucide-react";
import type { StorageJson } from "@/lib/contract/health";
import { STORAGE_FULL_EVENT } from "@/lib/client/api/http";
import { storageStatus } from "@/lib/client/api/storage";
import { formatBytes } from "@/lib/client/format";

/** Disks fill over minutes or hours; a look a minute is plenty, and a 507 prompts one at once. */
const LOOK_EVERY_MS = 60_000;

export function StorageBanner() {
  const [storage, setStorage] = useState<StorageJson | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const look = () =>
      storageStatus(controller.signal).then(setStorage, () => {
        // An unreachable server has its own ways of saying so; this banner is about the disk.
      });
    void look();
    const timer = setInterval(look, LOOK_EVERY_MS);
    window.addEventListener(STORAGE_FULL_EVENT, look);
    return () => {
      controller.abort();
      clearInterval(timer);
      window.removeEventListener(STORAGE_FULL_EVENT, look);
    };
  }, []);

  if (!storage || storage.level === "ok") return null;
  const full = storage.level === "full";
  const free = storage.free_bytes === null ? null : formatBytes(storage.free_bytes);
  return (
    <div
      role={full ? "alert" : "status"}
      data-testid="storage-banner"
      data-level={storage.level}
      className={
        full
          ? "flex items-start gap-2 border-b border-red-200 dark:border-red-900 bg-red-50 dark:bg-red-950/50 px-4 py-2 text-sm text-red-900 dark:text-red-200"
          : "flex items-start gap-2 border-b border-amber-200 dark:border-amber-900 bg-amber-50 dark:bg-amber-950/40 px-4 py-2 text-sm text-amber-900 dark:text-amber-200"
      }
    >
      <HardDrive aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <p className="min-w-0">
        {full ? (
          <>
            <span className="font-medium">The server&apos;s storage is full.</span> Nothing new can be saved until disk space is freed
            {free ? ` (${free} left)` : ""}; your conversations can still be read.
          </>
        ) : (
          <>
            <span className="font-medium">The server&apos;s disk is filling up{free ? `: ${free} left` : ""}.</span> Free some space soon:
            below {storage.refuse_below_bytes === null ? "a safety margin" : formatBytes(storage.refuse_below_bytes)} new messages are refused.
          </>
        )}
      </p>
    </div>
  );
}
