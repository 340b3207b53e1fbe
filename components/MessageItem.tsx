"use client";
// One saved message: its text, where it stands in Claude's view (dimmed once it slid out
// or was condensed into a summary, "kept" when pinned before the cutoff) and its protection.
import type { ReactNode } from "react";
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

function Badge({ children, tone, testId }: { children: ReactNode; tone: "sky" | "zinc"; testId?: string }) {
  const colours = tone === "sky" ? "bg-sky-50 text-sky-800 ring-sky-200" : "bg-zinc-100 text-zinc-600 ring-zinc-200";
  return (
    <span data-testid={testId} className={`rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset ${colours}`}>
      {children}
    </span>
  );
}

/** Text to show for messages that carry only tool blocks. */
function displayText(message: MessageJson): string {
  if (message.text.trim()) return message.text;
  const tools = message.content.flatMap((b) =>
    b.type === "tool_use" ? [`Tool call: ${b.name}`] : b.type === "tool_result" ? ["Tool result"] : [],
  );
  return tools.join("\n");
}

export function MessageItem({
  message,
  placement,
  protecting,
  onToggleProtect,
  retry,
}: {
  message: MessageJson;
  placement: MessagePlacement;
  protecting: boolean;
  onToggleProtect(): void;
  /** Offered on an interrupted reply when nothing newer has been sent. */
  retry?: { disabled: boolean; onRetry(): void };
}) {
  const isUser = message.role === "user";
  const outOfView = !message.in_window;
  const interrupted = message.status === "interrupted";
  const shown = displayText(message);
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
      <div className={`flex flex-wrap items-center gap-1.5 text-xs text-zinc-500 ${isUser ? "flex-row-reverse" : ""}`}>
        <span className="font-medium text-zinc-700">{isUser ? "You" : "Claude"}</span>
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
        <ProtectToggle pressed={message.protected} busy={protecting} onToggle={onToggleProtect} />
      </div>
      <div
        className={`max-w-[min(100%,46rem)] rounded-2xl px-4 py-2.5 shadow-sm ${
          isUser ? "bg-zinc-800 text-zinc-50" : "border border-zinc-200 bg-white text-zinc-900"
        } ${message.protected ? "ring-2 ring-sky-300" : ""}`}
      >
        {shown ? (
          <CollapsibleText text={shown} tone={isUser ? "dark" : "light"} />
        ) : (
          <p className="text-sm italic text-zinc-500">{interrupted ? "No reply text arrived." : "(empty)"}</p>
        )}
      </div>
      {interrupted && (
        <div role="status" className="flex items-center gap-2 text-xs text-amber-800" data-testid="interrupted-notice">
          <span aria-hidden>⚠</span>
          <span>Reply interrupted</span>
          {retry && (
            <button
              type="button"
              onClick={retry.onRetry}
              disabled={retry.disabled}
              className="rounded border border-amber-300 bg-amber-50 px-2 py-0.5 font-medium hover:bg-amber-100 disabled:opacity-50"
            >
              Retry
            </button>
          )}
        </div>
      )}
    </article>
  );
}
