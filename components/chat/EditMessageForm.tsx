"use client";
// Editing your last message in place: Enter (or the button) resends it changed, Esc or
// Cancel keeps it as it was. The original stays in the history as an earlier version.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";

export function EditMessageForm({ initial, onSubmit, onCancel }: { initial: string; onSubmit(text: string): void; onCancel(): void }) {
  const [text, setText] = useState(initial);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = area.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const changed = text.trim() !== "" && text.trim() !== initial.trim();

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (changed) onSubmit(text);
    }
  }

  return (
    <form
      data-testid="edit-message-form"
      className="flex w-full max-w-[min(100%,46rem)] flex-col gap-2 rounded-2xl border border-sky-300 bg-white p-3 shadow-sm dark:border-sky-800 dark:bg-zinc-900"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) onSubmit(text);
      }}
    >
      <label className="sr-only" htmlFor="edit-message">
        Edit your message
      </label>
      <textarea
        id="edit-message"
        ref={area}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={3}
        className="max-h-64 min-h-[4rem] w-full resize-y bg-transparent text-sm text-zinc-900 outline-none [field-sizing:content] dark:text-zinc-100"
      />
      <div className="flex items-center justify-end gap-2 text-sm">
        <span className="mr-auto text-xs text-zinc-500 dark:text-zinc-400">The original stays in the history.</span>
        <button type="button" onClick={onCancel} className="whitespace-nowrap rounded-lg px-3 py-1.5 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
          Cancel
        </button>
        <button
          type="submit"
          disabled={!changed}
          data-testid="edit-send"
          className="whitespace-nowrap rounded-lg bg-zinc-900 px-3 py-1.5 font-medium text-white hover:bg-zinc-700 disabled:cursor-not-allowed disabled:bg-zinc-300 dark:bg-zinc-100 dark:text-zinc-900 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500"
        >
          Send edit
        </button>
      </div>
    </form>
  );
}
