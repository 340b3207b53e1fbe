// What an import's row says, in words: pure, so it is tested without a browser.
import type { ImportJson } from "@/lib/contract/imports";

const FORMAT_NAMES: Record<NonNullable<ImportJson["format"]>, string> = {
  chatgpt: "ChatGPT",
  claude: "Claude.ai",
  "claude-code": "Claude Code",
  threadkeeper: "Threadkeeper",
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "ChatGPT · 12 conversations imported · 3 already here · 1 failed". */
export function importCounts(job: ImportJson): string {
  const parts = [
    ...(job.format ? [FORMAT_NAMES[job.format]] : []),
    `${plural(job.imported, "conversation")} imported`,
    ...(job.skipped > 0 ? [`${job.skipped.toLocaleString("en")} already here`] : []),
    ...(job.failed > 0 ? [`${job.failed.toLocaleString("en")} failed`] : []),
  ];
  return parts.join(" · ");
}

/** How far an import has got, 0–1: the upload first, then the server's reading of the file. */
export function importShare(job: ImportJson | null, uploaded: number): number {
  if (!job) return uploaded * 0.1;
  if (job.status !== "running") return 1;
  return 0.1 + 0.9 * (job.bytes > 0 ? Math.min(1, job.bytes_read / job.bytes) : 0);
}

/** The phase in words. */
export function importPhase(job: ImportJson | null, uploaded: number, error: string | null): string {
  if (error) return error;
  if (!job) return `Uploading… ${Math.round(uploaded * 100)} %`;
  if (job.status === "running") return `Reading… ${Math.round(importShare(job, 1) * 100)} %`;
  if (job.status === "failed") return job.error ?? "The import failed.";
  if (job.status === "cancelled") return "Cancelled: what was imported before stays.";
  return "Done";
}

/** Whether to offer archiving the import's sessions into memories (again, after a cancel or a failure). */
export function canArchive(job: ImportJson): boolean {
  return job.status !== "running" && job.imported > 0 && job.archive?.status !== "running" && job.archive?.status !== "done";
}

/** Archiving into memories, in words: "Archiving into memories… 3 of 12". */
export function archivePhase(archive: NonNullable<ImportJson["archive"]>): string {
  const done = `${archive.archived.toLocaleString("en")} of ${plural(archive.total, "conversation")}`;
  const failed = archive.failed > 0 ? ` · ${archive.failed.toLocaleString("en")} failed` : "";
  if (archive.status === "running") return `Archiving into memories… ${done}${failed}`;
  if (archive.status === "done") return `Archived into memories: ${done}${failed}`;
  if (archive.status === "cancelled") return `Archiving stopped at ${done}: archive again to carry on.`;
  return `Archiving stopped on an error at ${done}: archive again to carry on.`;
}
