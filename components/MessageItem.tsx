"use client";
// One saved message: its text (Claude's as markdown, the user's as typed), where it stands
// in Claude's view (dimmed once it slid out or was condensed into a summary, "kept" when
// pinned before the cutoff) and its protection.
//
// Memoized: while a reply streams the list re-renders on every delta, and saved messages
// must not (their markdown would be parsed again each time).
import { memo, type ReactNode } from "react";
import { TriangleAlert } from "lucide-react";
import type { MessageJson } from "@/lib/api/types";
import { CollapsibleText } from "@/components/CollapsibleText";
import { ProtectToggle } from "@/components/ProtectToggle";

export interface MessagePlacement {
  /** Part of the first turn, which the window never drops. */
  firstTurn: boolean;
  /** In the window although older turns around it slid out. */
  keptBeforeCutoff: boolean;
  /** Out of the window because a summary stands in for it (still shown, dimmed). */
  condensed?: boolean;
}

export interface MessageItemProps {
  message: MessageJson;
  placement: MessagePlacement;
  protecting: boolean;
  /** Called with this item's message, so one stable function serves every item. */
  onToggleProtect(message: MessageJson): void;
  /** Offered on an interrupted reply when nothing newer has been sent; null otherwise. */
  retry: { disabled: boolean; onRetry(): void } | null;
}

/**
 * Placement is a fresh object on every list render, so it is compared field by field;
 * everything else by identity (the store replaces a message object when it changes).
 */
export function sameMessageItemProps(a: MessageItemProps, b: MessageItemProps): boolean {
  return (
    a.message === b.message &&
    a.protecting === b.protecting &&
    a.onToggleProtect === b.onToggleProtect &&
    a.placement.firstTurn === b.placement.firstTurn &&
    a.placement.keptBeforeCutoff === b.placement.keptBeforeCutoff &&
    Boolean(a.placement.condensed) === Boolean(b.placement.condensed) &&
    a.retry?.disabled === b.retry?.disabled &&
    a.retry?.onRetry === b.retry?.onRetry
  );
}

function Badge({ children, tone, testId }: { children: ReactNode; tone: "sky" | "zinc"; testId?: string }) {
  const colours =
    tone === "sky"
      ? "bg-sky-50 text-sky-800 ring-sky-200 dark:bg-sky-950/60 dark:text-sky-300 dark:ring-sky-800"
      : "bg-zinc-100 text-zinc-600 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700";
  return (
    <span data-testid={testId} className={`rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset ${colours}`}>
      {children}
    </span>
  );
}

/** Text to show for messages that carry only tool blocks. */
function toolSummary(message: MessageJson): string {
  const tools = message.content.flatMap((b) =>
    b.type === "tool_use" ? [`Tool call: ${b.name}`] : b.type === "tool_result" ? ["Tool result"] : [],
  );
  return tools.join("\n");
}

export const MessageItem = memo(function MessageItem({ message, placement, protecting, onToggleProtect, retry }: MessageItemProps) {
  const isUser = message.role === "user";
  const outOfView = !message.in_window;
  const interrupted = message.status === "interrupted";
  const hasText = message.text.trim() !== "";
  const shown = hasText ? message.text : toolSummary(message);
  return (
    <article
      data-testid="message"
      data-role={message.role}
      data-seq={message.seq}
      data-status={message.status}
      data-in-window={message.in_window}
      data-condensed={Boolean(placement.condensed)}
      aria-label={`${isUser ? "You" : "Claude"}${
        placement.condensed ? ", condensed into the summary" : outOfView ? ", outside Claude's current view" : ""
      }`}
      className={`group flex flex-col gap-1 ${isUser ? "items-end" : "items-start"} ${
        outOfView ? "opacity-45 transition-opacity hover:opacity-80" : ""
      }`}
    >
      <div className={`flex flex-wrap items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400 ${isUser ? "flex-row-reverse" : ""}`}>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">{isUser ? "You" : "Claude"}</span>
        {placement.firstTurn && (
          <Badge tone="zinc" testId="first-turn-badge">
            First turn — always kept
          </Badge>
        )}
        {message.protected && (
          <Badge tone="sky" testId="protected-badge">
            Protected
          </Badge>
        )}
        {placement.keptBeforeCutoff && !placement.firstTurn && (
          <Badge tone="zinc" testId="kept-label">
            kept
          </Badge>
        )}
        {outOfView &&
          (placement.condensed ? (
            <span className="italic" data-testid="condensed-label" title="Claude sees the summary of this turn instead">
              condensed
            </span>
          ) : (
            <span className="italic">out of view</span>
          ))}
        <ProtectToggle pressed={message.protected} busy={protecting} onToggle={() => onToggleProtect(message)} />
      </div>
      <div
        className={`max-w-[min(100%,46rem)] rounded-2xl px-4 py-2.5 shadow-sm ${
          isUser ? "bg-zinc-800 text-zinc-50" : "border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 text-zinc-900 dark:text-zinc-100"
        } ${message.protected ? "ring-2 ring-sky-300 dark:ring-sky-700" : ""}`}
      >
        {shown ? (
          <CollapsibleText text={shown} format={isUser || !hasText ? "plain" : "markdown"} />
        ) : (
          <p className="text-sm italic text-zinc-500 dark:text-zinc-400">{interrupted ? "No reply text arrived." : "(empty)"}</p>
        )}
      </div>
      {interrupted && (
        <div role="status" className="flex items-center gap-2 text-xs text-amber-800 dark:text-amber-300" data-testid="interrupted-notice">
          <TriangleAlert aria-hidden className="h-3.5 w-3.5 shrink-0" />
          <span>Reply interrupted</span>
          {retry && (
            <button
              type="button"
              onClick={retry.onRetry}
              disabled={retry.disabled}
              className="rounded border border-amber-300 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 px-2 py-0.5 font-medium hover:bg-amber-100 dark:hover:bg-amber-900/40 disabled:opacity-50"
            >
              Retry
            </button>
          )}
        </div>
      )}
    </article>
  );
}, sameMessageItemProps);
