"use client";
// The paper clip beside the message box: a real file input (reachable by Tab, labelled), styled
// through its label so the browser's own picker and its keyboard handling stay.
import { useId, useRef } from "react";
import { Paperclip } from "lucide-react";
import { FILE_INPUT_ACCEPT } from "@/lib/contract/file-types";
import { ACCEPTED_TYPES_TEXT } from "@/lib/contract/files";

export function AttachButton({ onFiles, disabled }: { onFiles(files: File[]): void; disabled?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={FILE_INPUT_ACCEPT}
        disabled={disabled}
        data-testid="attach-input"
        className="peer sr-only"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          // Cleared, so picking the same file again (after removing it) fires change again.
          e.target.value = "";
          onFiles(files);
        }}
      />
      <label
        htmlFor={id}
        data-testid="attach-button"
        title={`Attach files: ${ACCEPTED_TYPES_TEXT}`}
        className="mb-0.5 inline-flex h-9 w-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sky-500 peer-disabled:cursor-not-allowed peer-disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        <Paperclip aria-hidden className="h-[18px] w-[18px]" />
        <span className="sr-only">Attach files</span>
      </label>
    </>
  );
}
