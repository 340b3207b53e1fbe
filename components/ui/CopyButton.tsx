"use client";
// Copies a text and says so for a moment. The visible word changes with the icon, so the
// feedback does not depend on noticing a glyph swap; screen readers hear it through a
// status line.
import { useEffect, useState } from "react";
import { writeClipboard } from "@/lib/client/clipboard";
import { Check, Copy } from "lucide-react";

const FEEDBACK_MS = 2_000;

export function CopyButton({ text, label, className = "", testId = "copy-button" }: { text: string; label: string; className?: string; testId?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    writeClipboard(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };

  const word = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy";
  return (
    <button
      type="button"
      onClick={copy}
      data-testid={testId}
      data-state={state}
      aria-label={state === "idle" ? label : word}
      title={label}
      className={`relative inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-[11px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-sky-500 ${className}`}
    >
      {state === "copied" ? <Check aria-hidden className="h-3.5 w-3.5" /> : <Copy aria-hidden className="h-3.5 w-3.5" />}
      <span aria-hidden>{word}</span>
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied to clipboard" : state === "failed" ? "Could not copy" : ""}
      </span>
    </button>
  );
}
