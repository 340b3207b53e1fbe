"use client";
// Files the user attached, as the conversation keeps them: an image as a thumbnail that opens the
// file, and a file attached by reference as a compact card. (A PDF or text file is a
// DocumentCard.) A file deleted since shows its name and that it is gone.
import { useState } from "react";
import { ExternalLink, ImageOff, Link2 } from "lucide-react";
import { fileHref } from "@/lib/client/api/files";
import { asRecord, num, str, type Loose } from "@/lib/client/content-blocks";
import { compactTokens } from "@/lib/client/format";

export const OPEN_LINK_CLASS =
  "inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-sky-800 hover:bg-sky-50 dark:text-sky-300 dark:hover:bg-zinc-800";

/** An image block whose bytes are a stored file. */
export function StoredImage({ block, fileId }: { block: Loose; fileId: string }) {
  const [gone, setGone] = useState(false);
  const note = asRecord(block.threadkeeper) ?? {};
  const name = str(note.name) ?? "Image";
  const width = num(note.width);
  const height = num(note.height);
  if (gone) {
    return (
      <span data-testid="stored-image-missing" className="inline-flex max-w-full items-center gap-1.5 rounded-lg border border-zinc-200 bg-white px-2.5 py-1.5 text-xs text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-400">
        <ImageOff aria-hidden className="h-4 w-4 shrink-0" />
        <span className="truncate" title={name}>
          {name} · no longer available
        </span>
      </span>
    );
  }
  return (
    <a
      href={fileHref(fileId)}
      target="_blank"
      rel="noopener"
      data-testid="stored-image"
      title={`${name} (opens in a new tab)`}
      className="block max-w-[min(100%,20rem)] overflow-hidden rounded-xl border border-zinc-200 bg-zinc-50 shadow-sm hover:opacity-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-500 dark:border-zinc-700 dark:bg-zinc-950"
    >
      <img
        src={fileHref(fileId)}
        alt={name}
        loading="lazy"
        decoding="async"
        // The stored size reserves the box, so the list does not jump as thumbnails arrive.
        width={width ?? undefined}
        height={height ?? undefined}
        onError={() => setGone(true)}
        className="block h-auto max-h-40 w-auto max-w-full object-contain sm:max-h-48"
      />
    </a>
  );
}

/** "report.pdf · attached by reference · 120 pages · ~96K tokens", with Open. */
export function FileReferenceCard({ block }: { block: Loose }) {
  const fileId = str(block.file_id);
  const name = str(block.name) ?? "File";
  const pages = num(block.pages);
  const tokens = num(block.tokens);
  const facts = [
    "attached by reference",
    pages !== null ? `${pages} page${pages === 1 ? "" : "s"}` : null,
    tokens !== null ? `~${compactTokens(tokens)} tokens` : null,
  ].filter(Boolean);
  return (
    <div
      data-testid="file-reference"
      title="Claude sees one line naming this file and opens the parts it needs"
      className="flex w-full max-w-sm items-center gap-2.5 rounded-xl border border-dashed border-zinc-300 bg-white p-2 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <span aria-hidden className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
        <Link2 className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={name}>
          {name}
        </p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="file-reference-meta">
          {facts.join(" · ")}
        </p>
      </div>
      {fileId && (
        <a href={fileHref(fileId)} target="_blank" rel="noopener" aria-label={`Open ${name}`} className={OPEN_LINK_CLASS}>
          Open
          <ExternalLink aria-hidden className="h-3 w-3" />
        </a>
      )}
    </div>
  );
}
