"use client";
// One file in the composer: a thumbnail (images) or an icon, its name, size, what it costs in
// Claude's context, its pages; a spinner while it uploads, the server's words if it was refused,
// "by reference" when it is large against the window, and ×.
import { useId } from "react";
import { FileCode2, FileText, Link2, Loader2, TriangleAlert, X } from "lucide-react";
import { chipFacts, offersReference, REFERENCE_SHARE, type FileChip } from "@/lib/client/attachments";
import { useAttachmentsStore } from "@/lib/client/attachments-store";

const REFERENCE_TIP =
  `This file would take more than ${Math.round(REFERENCE_SHARE * 100)}% of Claude's context. By reference, Claude sees one line naming it and opens the parts it needs.`;

function Thumb({ chip }: { chip: FileChip }) {
  if (chip.previewUrl) {
    return <img src={chip.previewUrl} alt="" className="h-10 w-10 shrink-0 rounded-md object-cover ring-1 ring-inset ring-black/5 dark:ring-white/10" />;
  }
  const pdf = chip.kind === "pdf";
  const Icon = pdf ? FileText : FileCode2;
  return (
    <span
      aria-hidden
      className={`flex h-10 w-10 shrink-0 flex-col items-center justify-center rounded-md ${
        pdf ? "bg-red-50 text-red-700 dark:bg-red-950/60 dark:text-red-300" : "bg-sky-50 text-sky-800 dark:bg-sky-950/60 dark:text-sky-300"
      }`}
    >
      <Icon className="h-4 w-4" />
      {pdf && <span className="text-[8px] font-bold leading-none tracking-wide">PDF</span>}
    </span>
  );
}

export function FileChipItem({ chip, capacity, locked }: { chip: FileChip; capacity: number | null; locked: boolean }) {
  const { remove, toggleReference } = useAttachmentsStore.getState();
  const failed = chip.status === "failed";
  const offer = offersReference(chip, capacity);
  const facts = chipFacts(chip);
  const tipId = useId();
  return (
    <li
      data-testid="file-chip"
      data-status={chip.status}
      data-kind={chip.kind}
      aria-busy={chip.status === "uploading"}
      className={`relative flex w-60 shrink-0 items-center sm:w-64 gap-2 rounded-xl border py-1.5 pl-1.5 pr-8 text-xs shadow-sm ${
        failed
          ? "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/40"
          : "border-zinc-200 bg-white dark:border-zinc-700 dark:bg-zinc-800"
      }`}
    >
      <span className="relative">
        <Thumb chip={chip} />
        {chip.status === "uploading" && (
          <span className="absolute inset-0 flex items-center justify-center rounded-md bg-white/85 dark:bg-zinc-800/85">
            <Loader2 aria-hidden className="h-4 w-4 animate-spin text-zinc-600 dark:text-zinc-300" />
          </span>
        )}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-zinc-900 dark:text-zinc-100" title={chip.name} data-testid="file-chip-name">
          {chip.name}
        </p>
        {failed ? (
          <p role="alert" data-testid="file-chip-error" className="line-clamp-2 break-words text-red-700 dark:text-red-300" title={chip.error ?? undefined}>
            <TriangleAlert aria-hidden className="mr-1 inline h-3 w-3 align-[-2px]" />
            {chip.error}
          </p>
        ) : (
          <p className="line-clamp-2 text-zinc-500 dark:text-zinc-400" data-testid="file-chip-facts">
            {chip.status === "uploading" ? `${facts[0]} · uploading…` : facts.join(" · ")}
          </p>
        )}
        {offer && (
          <button
            type="button"
            data-testid="file-chip-reference"
            aria-pressed={chip.byReference}
            disabled={locked}
            title={REFERENCE_TIP}
            aria-describedby={tipId}
            onClick={() => toggleReference(chip.key)}
            className={`mt-1 inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset disabled:opacity-50 ${
              chip.byReference
                ? "bg-sky-600 text-white ring-sky-600 dark:bg-sky-500 dark:text-zinc-950 dark:ring-sky-500"
                : "bg-white text-sky-800 ring-sky-300 hover:bg-sky-50 dark:bg-zinc-900 dark:text-sky-300 dark:ring-sky-800 dark:hover:bg-sky-950/50"
            }`}
          >
            <Link2 aria-hidden className="h-3 w-3" />
            Attach by reference
          </button>
        )}
        {offer && (
          <span id={tipId} className="sr-only">
            {REFERENCE_TIP}
          </span>
        )}
      </div>
      <button
        type="button"
        data-testid="file-chip-remove"
        aria-label={`Remove ${chip.name}`}
        disabled={locked}
        onClick={() => remove(chip.key)}
        className="absolute right-1 top-1 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-40 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
      >
        <X aria-hidden className="h-3.5 w-3.5" />
      </button>
    </li>
  );
}
