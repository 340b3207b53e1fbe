"use client";
// A new key's secret, shown exactly once: the server keeps only its hash, so once this box is
// closed nobody can show it again. The copy button says what it did in words.
import { useEffect, useState } from "react";
import { writeClipboard } from "@/lib/client/clipboard";
import { Check, Copy, TriangleAlert } from "lucide-react";

const FEEDBACK_MS = 2_000;

export function NewKeySecret({ name, secret, onDone }: { name: string; secret: string; onDone(): void }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (copy === "idle") return;
    const timer = setTimeout(() => setCopy("idle"), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copy]);

  const doCopy = () => {
    writeClipboard(secret).then(
      () => setCopy("copied"),
      () => setCopy("failed"),
    );
  };

  return (
    <div
      role="region"
      aria-label={`New key ${name}`}
      data-testid="api-key-new"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-700/60 dark:bg-amber-950/30"
    >
      <p className="flex items-start gap-1.5 text-xs font-medium text-amber-900 dark:text-amber-200">
        <TriangleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" />
        <span>Copy “{name}” now. You will not see this key again: only its hash is stored.</span>
      </p>
      <div className="flex items-start gap-2">
        {/* Wrapped, not an input: the whole key stays visible in a narrow panel, and one click selects it. */}
        <code
          aria-label="New API key"
          data-testid="api-key-secret"
          className="min-w-0 flex-1 select-all break-all rounded border border-amber-200 bg-white px-2 py-1 font-mono text-xs text-zinc-900 dark:border-amber-800/60 dark:bg-zinc-950 dark:text-zinc-100"
        >
          {secret}
        </code>
        <button
          type="button"
          onClick={doCopy}
          data-testid="api-key-copy"
          data-state={copy}
          className="inline-flex shrink-0 items-center gap-1 rounded-md bg-zinc-900 px-2 py-1 text-xs font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          {copy === "copied" ? <Check aria-hidden className="h-3.5 w-3.5" /> : <Copy aria-hidden className="h-3.5 w-3.5" />}
          {copy === "copied" ? "Copied" : copy === "failed" ? "Copy failed" : "Copy"}
        </button>
      </div>
      <span role="status" className="sr-only">
        {copy === "copied" ? "Key copied to the clipboard" : copy === "failed" ? "Could not copy; select the key and copy it by hand" : ""}
      </span>
      <div className="flex justify-end">
        <button
          type="button"
          onClick={onDone}
          data-testid="api-key-secret-done"
          className="rounded-md px-2 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100 dark:text-amber-200 dark:hover:bg-amber-900/40"
        >
          I have copied it
        </button>
      </div>
    </div>
  );
}
