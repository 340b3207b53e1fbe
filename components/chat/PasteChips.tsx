"use client";
// The large pastes waiting in the composer, one chip each: what it is, a look inside, ×.
import { useState } from "react";
import { FileText, X } from "lucide-react";
import { describePaste, type PastedText } from "@/lib/client/paste";

export function PasteChips({ pastes, onRemove }: { pastes: readonly PastedText[]; onRemove(id: number): void }) {
  const [open, setOpen] = useState<number | null>(null);
  if (pastes.length === 0) return null;
  const shown = pastes.find((p) => p.id === open);
  return (
    <div className="mb-2 flex flex-col gap-2">
      <ul className="flex flex-wrap gap-2" aria-label="Attached pastes">
        {pastes.map((p) => (
          <li key={p.id} data-testid="paste-chip" className="flex items-center rounded-lg border border-zinc-300 bg-zinc-50 text-xs dark:border-zinc-700 dark:bg-zinc-800">
            <button
              type="button"
              aria-expanded={open === p.id}
              onClick={() => setOpen(open === p.id ? null : p.id)}
              className="flex items-center gap-1.5 rounded-l-lg px-2 py-1.5 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-700"
            >
              <FileText aria-hidden className="h-3.5 w-3.5 shrink-0" />
              <span className="font-medium">Pasted text</span>
              <span className="text-zinc-500 dark:text-zinc-400">{describePaste(p.text)}</span>
            </button>
            <button
              type="button"
              data-testid="paste-remove"
              aria-label="Remove pasted text"
              onClick={() => onRemove(p.id)}
              className="rounded-r-lg px-1.5 py-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
            >
              <X aria-hidden className="h-3.5 w-3.5" />
            </button>
          </li>
        ))}
      </ul>
      {shown && (
        <pre data-testid="paste-preview" className="max-h-40 overflow-auto whitespace-pre-wrap rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-[11px] text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300">
          {shown.text}
        </pre>
      )}
    </div>
  );
}
