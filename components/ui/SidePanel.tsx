"use client";
// The drawer that settings and memory open in: a modal dialog on the right that takes
// focus (and keeps it until closed, then gives it back), and closes on Escape, on its close button or on a press outside it.
import { useId, useRef, type ReactNode } from "react";
import { X } from "lucide-react";
import { useDialogFocus } from "@/components/ui/useDialogFocus";
import { useEscapeKey } from "@/components/ui/useEscapeKey";

export function SidePanel({
  title,
  testId,
  closeLabel,
  closeTestId,
  className,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  closeLabel: string;
  closeTestId?: string;
  /** Width, spacing and background of the drawer. */
  className: string;
  onClose(): void;
  children: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useDialogFocus(panel);
  useEscapeKey(onClose);

  return (
    <div className="fixed inset-0 z-40 flex justify-end bg-zinc-900/20 dark:bg-black/60" onMouseDown={onClose}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        onMouseDown={(e) => e.stopPropagation()}
        className={`flex h-full w-full flex-col overflow-y-auto p-5 shadow-xl outline-none ${className}`}
      >
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
            {title}
          </h2>
          <button
            type="button"
            data-testid={closeTestId}
            onClick={onClose}
            aria-label={closeLabel}
            className="rounded p-1 text-zinc-500 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800 hover:text-zinc-800 dark:hover:text-zinc-200"
          >
            <X aria-hidden className="h-4 w-4" />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
