"use client";
// One saved message: its text (Claude's as markdown, the user's as typed), where it stands
// in Claude's view (dimmed once it slid out or was condensed into a summary, "kept" when
// pinned before the cutoff) and its protection.
//
// Memoized: while a reply streams the list re-renders on every delta, and saved messages
// must not (their markdown would be parsed again each time).
import { memo, useMemo, useState, type ReactNode } from "react";
import { ChevronLeft, ChevronRight, History, Pencil, RefreshCw, TriangleAlert } from "lucide-react";
import type { MessageJson } from "@/lib/contract";
import type { VersionSwitcher } from "@/lib/client/versions";
import { isCanvasTool } from "@/lib/canvas/tools";
import { RECALL_TOOL_NAME } from "@/lib/context/recall";
import { OPEN_FILE_TOOL_NAME } from "@/lib/context/files";
import { openingFile } from "@/components/chat/open-file";
import { typedText } from "@/lib/context/text";
import { CollapsibleText } from "@/components/chat/CollapsibleText";
import { CopyButton } from "@/components/ui/CopyButton";
import { EditMessageForm } from "@/components/chat/EditMessageForm";
import { ProtectToggle } from "@/components/context/ProtectToggle";
import { groupBlocks, needsBlockView, splitUserItems } from "@/lib/client/content-blocks";
import { BlockItems } from "@/components/chat/blocks/BlockItems";

export interface MessagePlacement {
  /** Part of the first turn, which the window never drops. */
  firstTurn: boolean;
  /** In the window although older turns around it slid out. */
  keptBeforeCutoff: boolean;
  /** Out of the window because a summary stands in for it (still shown, dimmed). */
  condensed?: boolean;
  /** An earlier version: an edit or a regenerated reply replaced it (still shown, dimmed). */
  replaced?: boolean;
}

/** What can be done to the conversation's last message and reply; null elsewhere. */
export interface VersionActions {
  disabled: boolean;
  /** On your last message: resend it changed. */
  onEdit?(messageId: string, text: string): void;
  /** On the last reply: answer the message again. */
  onRegenerate?(replyId: string): void;
}

export interface MessageItemProps {
  message: MessageJson;
  placement: MessagePlacement;
  protecting: boolean;
  /** Called with this item's message, so one stable function serves every item. */
  onToggleProtect(message: MessageJson): void;
  /** Offered on an interrupted reply when nothing newer has been sent; null otherwise. */
  retry: { disabled: boolean; onRetry(): void } | null;
  versions: VersionActions | null;
  /** On the first message of a version shown behind a ‹ 1/2 › switcher; null elsewhere. */
  switcher?: VersionSwitcher | null;
  /** Shows another version of a slot; one stable function serves every item. */
  onPickVersion?(slot: string, index: number, count: number): void;
  /** How long each thinking block of this reply took, when this client timed it while it streamed. */
  thinkingMs?: readonly (number | null)[];
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
    Boolean(a.placement.replaced) === Boolean(b.placement.replaced) &&
    a.retry?.disabled === b.retry?.disabled &&
    a.retry?.onRetry === b.retry?.onRetry &&
    a.versions?.disabled === b.versions?.disabled &&
    a.versions?.onEdit === b.versions?.onEdit &&
    a.versions?.onRegenerate === b.versions?.onRegenerate &&
    a.switcher?.slot === b.switcher?.slot &&
    a.switcher?.index === b.switcher?.index &&
    a.switcher?.count === b.switcher?.count &&
    a.onPickVersion === b.onPickVersion &&
    a.thinkingMs === b.thinkingMs
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

/**
 * Text to show for messages that carry only tool blocks. Canvas calls are left out: each shows
 * as a line of its own with its result (ToolResultsItem).
 */
function toolSummary(message: MessageJson): string {
  const tools = message.content.flatMap((b) => {
    if (b.type === "tool_result") return ["Tool result"];
    if (b.type !== "tool_use" || isCanvasTool(b.name)) return [];
    if (b.name === OPEN_FILE_TOOL_NAME) return [openingFile(b.input)];
    const query = (b.input as { query?: unknown } | null)?.query;
    return [b.name === RECALL_TOOL_NAME && typeof query === "string" ? `Searching the history for “${query}”…` : `Tool call: ${b.name}`];
  });
  return tools.join("\n");
}

const ACTION =
  "inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-200";

export const MessageItem = memo(function MessageItem({
  message,
  placement,
  protecting,
  onToggleProtect,
  retry,
  versions,
  switcher,
  onPickVersion,
  thinkingMs,
}: MessageItemProps) {
  const [editing, setEditing] = useState(false);
  // Thinking, documents, server tools, citations, notes: drawn block by block; plain text as before.
  const items = useMemo(() => groupBlocks(message.content), [message.content]);
  const blockView = needsBlockView(items);
  const isUser = message.role === "user";
  const outOfView = !message.in_window || Boolean(placement.replaced);
  const interrupted = message.status === "interrupted";
  // A reply that calls tools shows its words; the calls show as their own blocks below it.
  const words = message.content.some((b) => b.type === "tool_use") ? typedText(message.content, "\n\n") : message.text;
  const hasText = words.trim() !== "";
  const shown = hasText ? words : toolSummary(message);
  // Only canvas calls and no words: the call lines below say it all, an empty bubble would not.
  const onlyCanvasCalls = !shown && message.content.some((b) => b.type === "tool_use" && isCanvasTool(b.name));
  const bubble = `max-w-[min(100%,46rem)] rounded-2xl px-4 py-2.5 shadow-sm ${
    isUser ? "bg-zinc-800 text-zinc-50" : "border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 text-zinc-900 dark:text-zinc-100"
  } ${message.protected ? "ring-2 ring-sky-300 dark:ring-sky-700" : ""}`;
  return (
    <article
      data-testid="message"
      data-role={message.role}
      data-seq={message.seq}
      data-status={message.status}
      data-in-window={message.in_window}
      data-condensed={Boolean(placement.condensed)}
      data-replaced={Boolean(placement.replaced)}
      aria-label={`${isUser ? "You" : "Claude"}${
        placement.replaced
          ? ", an earlier version"
          : placement.condensed
            ? ", condensed into the summary"
            : outOfView
              ? ", outside Claude's current view"
              : ""
      }`}
      className={`group flex flex-col gap-1 ${isUser ? "items-end" : "items-start"} ${
        outOfView ? "opacity-45 transition-opacity hover:opacity-80" : ""
      }`}
    >
      <div className={`flex flex-wrap items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400 ${isUser ? "flex-row-reverse" : ""}`}>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">{isUser ? "You" : "Claude"}</span>
        {placement.firstTurn && !placement.replaced && (
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
        {placement.replaced ? (
          <span className="inline-flex items-center gap-1 italic" data-testid="earlier-version-label" title="Replaced by an edit or a regenerated reply; Claude no longer sees it">
            <History aria-hidden className="h-3 w-3" />
            earlier version
          </span>
        ) : outOfView &&
          (placement.condensed ? (
            <span className="italic" data-testid="condensed-label" title="Claude sees the summary of this turn instead">
              condensed
            </span>
          ) : (
            <span className="italic">out of view</span>
          ))}
        <ProtectToggle pressed={message.protected} busy={protecting} onToggle={() => onToggleProtect(message)} />
      </div>
      {editing && versions?.onEdit ? (
        <EditMessageForm
          initial={message.text}
          onCancel={() => setEditing(false)}
          onSubmit={(text) => {
            setEditing(false);
            versions.onEdit?.(message.id, text);
          }}
        />
      ) : blockView ? (
        isUser ? (
          <UserBlocks items={items} anchor={message.id} bubble={bubble} />
        ) : (
          <div className={`${bubble} w-full`} data-testid="block-view">
            <BlockItems items={items} anchor={message.id} timing={{ thinkingMs }} />
          </div>
        )
      ) : onlyCanvasCalls ? null : (
      <div className={bubble}>
        {shown ? (
          <CollapsibleText text={shown} format={isUser || !hasText ? "plain" : "markdown"} />
        ) : (
          <p className="text-sm italic text-zinc-500 dark:text-zinc-400">{interrupted ? "No reply text arrived." : "(empty)"}</p>
        )}
      </div>
      )}
      {!editing && (hasText || versions || switcher) && (
        <div
          className={`flex items-center gap-1 ${isUser ? "justify-end" : ""} ${versions || switcher ? "" : "md:opacity-0 md:group-hover:opacity-100 md:focus-within:opacity-100"}`}
        >
          {switcher && onPickVersion && <VersionSwitch switcher={switcher} onPick={onPickVersion} />}
          {hasText && <CopyButton text={words} label={isUser ? "Copy message" : "Copy reply"} testId="copy-message" className={ACTION} />}
          {versions?.onEdit && (
            <button type="button" data-testid="edit-message" className={ACTION} disabled={versions.disabled} onClick={() => setEditing(true)}>
              <Pencil aria-hidden className="h-3 w-3" />
              Edit
            </button>
          )}
          {versions?.onRegenerate && (
            <button type="button" data-testid="regenerate" className={ACTION} disabled={versions.disabled} onClick={() => versions.onRegenerate?.(message.id)}>
              <RefreshCw aria-hidden className="h-3 w-3" />
              Regenerate
            </button>
          )}
        </div>
      )}
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

/** ‹ 2 / 3 ›: which version of this message (or reply) is shown, and the way to the others. */
function VersionSwitch({ switcher: { slot, index, count }, onPick }: { switcher: VersionSwitcher; onPick(slot: string, index: number, count: number): void }) {
  return (
    <span role="group" aria-label="Versions" data-testid="version-switch" className="inline-flex items-center text-xs text-zinc-500 dark:text-zinc-400">
      <button type="button" aria-label="Previous version" data-testid="version-prev" disabled={index === 0} onClick={() => onPick(slot, index - 1, count)} className={ACTION}>
        <ChevronLeft aria-hidden className="h-3.5 w-3.5" />
      </button>
      <span data-testid="version-position" aria-live="polite" className="tabular-nums">
        {index + 1} / {count}
      </span>
      <button type="button" aria-label="Next version" data-testid="version-next" disabled={index === count - 1} onClick={() => onPick(slot, index + 1, count)} className={ACTION}>
        <ChevronRight aria-hidden className="h-3.5 w-3.5" />
      </button>
    </span>
  );
}

/** A user message with attachments or notes: files above the bubble, the typed text in it, the rest below. */
function UserBlocks({ items, anchor, bubble }: { items: ReturnType<typeof groupBlocks>; anchor: string; bubble: string }) {
  const { before, attachments, text, after } = splitUserItems(items);
  // Pictures side by side, file cards one under another: in one wrapping row a card would
  // stretch to a picture's height.
  const pictures = attachments.filter((i) => i.kind === "image");
  const files = attachments.filter((i) => i.kind !== "image");
  return (
    <div className="flex w-full max-w-[min(100%,46rem)] flex-col items-end gap-2" data-testid="block-view">
      <BlockItems items={before} anchor={anchor} className="flex min-w-0 flex-col items-end gap-1" />
      <BlockItems items={pictures} anchor={anchor} className="flex w-full flex-wrap items-start justify-end gap-2" />
      <BlockItems items={files} anchor={anchor} className="flex w-full flex-col items-end gap-2" />
      {text.length > 0 && (
        <div className={bubble}>
          <BlockItems items={text} anchor={anchor} plain />
        </div>
      )}
      <BlockItems items={after} anchor={anchor} className="flex min-w-0 flex-col items-end gap-1" />
    </div>
  );
}
