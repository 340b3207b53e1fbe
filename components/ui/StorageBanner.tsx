"use client";
// Warns before the server's disk fills (and says so once it has): a full disk means nothing
// more can be saved, and the person should hear it from the app before a send fails.
import { useEffect, useState } from "react";
import { HardDrive, X } from "lucide-react";
import type { StorageJson } from "@/lib/contract/health";
import { STORAGE_FULL_EVENT } from "@/lib/client/api/http";
import { storageStatus } from "@/lib/client/api/storage";
import { formatBytes } from "@/lib/client/format";

/** Disks fill over minutes or hours; a look a minute is plenty, and a 507 prompts one at once. */
const LOOK_EVERY_MS = 60_000;

export function StorageBanner() {
  const [storage, setStorage] = useState<StorageJson | null>(null);
  // Only the warning may be put away, and only while it stays a warning: a full disk fails every
  // send, so that banner stays until space is freed, and a disk that recovers and fills again warns again.
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const look = () =>
      storageStatus(controller.signal).then(
        (s) => {
          setStorage(s);
          if (s.level !== "low") setDismissed(false);
        },
        () => {
          // An unreachable server has its own ways of saying so; this banner is about the disk.
        },
      );
    void look();
    const timer = setInterval(look, LOOK_EVERY_MS);
    window.addEventListener(STORAGE_FULL_EVENT, look);
    return () => {
      controller.abort();
      clearInterval(timer);
      window.removeEventListener(STORAGE_FULL_EVENT, look);
    };
  }, []);

  if (!storage || storage.level === "ok" || (storage.level === "low" && dismissed)) return null;
  const full = storage.level === "full";
  // Figures come only to whoever runs the server (local mode); anyone else can only pass it on.
  const operator = storage.free_bytes !== null;
  return (
    <div
      role={full ? "alert" : "status"}
      data-testid="storage-banner"
      data-level={storage.level}
      className={
        full
          ? "flex items-start gap-2 border-b border-red-200 dark:border-red-900 bg-red-50 dark:bg-red-950 px-4 py-2 text-sm text-red-900 dark:text-red-100"
          : "flex items-start gap-2 border-b border-amber-200 dark:border-amber-900 bg-amber-50 dark:bg-amber-950 px-4 py-2 text-sm text-amber-900 dark:text-amber-100"
      }
    >
      <HardDrive aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <p className="min-w-0 flex-1">{full ? fullText(operator) : lowText(storage)}</p>
      {!full && (
        <button
          type="button"
          onClick={() => setDismissed(true)}
          aria-label="Dismiss the disk space warning"
          data-testid="storage-banner-dismiss"
          className="-my-1.5 -mr-2.5 shrink-0 rounded p-1.5 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-current"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      )}
    </div>
  );
}

function fullText(operator: boolean) {
  // No figure here: "full" with megabytes left reads as a contradiction, and the floor is why.
  return (
    <>
      <span className="font-semibold">The server&apos;s storage is full.</span> New messages can&apos;t be saved until
      {operator ? " disk space is freed" : " whoever runs it frees disk space"}; your conversations can still be read.
    </>
  );
}

function lowText(storage: StorageJson) {
  const free = storage.free_bytes === null ? null : formatBytes(storage.free_bytes);
  const floor = storage.refuse_below_bytes;
  return (
    <>
      <span className="font-semibold">The server&apos;s disk is filling up{free ? `: ${free} left` : ""}.</span>{" "}
      {free === null
        ? "Whoever runs it should free some space soon, or new messages will be refused."
        : floor
          ? `Free some space soon: below ${formatBytes(floor)}, new messages are refused.`
          : "Free some space soon: once it is full, new messages can't be saved."}
    </>
  );
}
