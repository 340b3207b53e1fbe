"use client";
// The conversation's column as a drop target: files dragged over it show an overlay saying
// where they will go, and dropped anywhere on it they are attached. Text or links dragged
// around the page are left to the browser.
import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { Upload } from "lucide-react";
import { ACCEPTED_TYPES_TEXT } from "@/lib/contract/files";
import { useAttachFiles } from "@/components/chat/files/useAttachFiles";

const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes("Files");

export function FileDropArea({ className, children }: { className: string; children: ReactNode }) {
  const attach = useAttachFiles();
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed: only the outermost pair counts.
  const depth = useRef(0);
  return (
    <main
      className={`relative ${className}`}
      data-testid="chat-drop-area"
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        // Without this the browser would open the file in place of the app.
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(e) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        void attach([...e.dataTransfer.files]);
      }}
    >
      {children}
      {over && (
        <div
          data-testid="drop-overlay"
          aria-hidden
          className="pointer-events-none absolute inset-2 z-40 flex flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-sky-400 bg-sky-50/85 text-center text-sky-900 backdrop-blur-sm dark:border-sky-500 dark:bg-sky-950/80 dark:text-sky-100"
        >
          <Upload className="h-8 w-8" />
          <p className="text-base font-semibold">Drop files to attach them</p>
          <p className="max-w-sm px-6 text-xs opacity-80">{ACCEPTED_TYPES_TEXT}</p>
        </div>
      )}
    </main>
  );
}
