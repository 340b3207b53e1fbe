"use client";
// Tool results in the chat: not a message the user typed, so no "You" bubble. A recall shows
// as a collapsible "Recalled from …" block with the excerpts Claude was given; a canvas call
// as one line saying what changed on the canvas; an open_file call as "Opened report.pdf, page 3"
// with the text Claude was given inside.
import { FileText, History, TriangleAlert, Wrench } from "lucide-react";
import type { MessageJson } from "@/lib/contract";
import { isCanvasTool } from "@/lib/canvas/tools";
import { OPEN_FILE_TOOL_NAME } from "@/lib/context/files";
import { parseRecall, RECALL_TOOL_NAME, type ParsedExcerpt } from "@/lib/context/recall";
import { toolResultText, typedText } from "@/lib/context/text";
import type { ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { PlainText } from "@/components/chat/PlainText";
import { CanvasCallLine } from "@/components/canvas/CanvasCallLine";
import { ToolResultContent } from "@/components/chat/blocks/MiscBlocks";
import { openedFile } from "@/components/chat/open-file";

/** "“Trip planning” and this conversation": where the excerpts came from, each place once. */
export function recalledFrom(excerpts: readonly ParsedExcerpt[]): string {
  const places = [...new Set(excerpts.map((e) => (e.sessionTitle === null ? "earlier in this conversation" : `“${e.sessionTitle}”`)))];
  if (places.length <= 2) return places.join(" and ");
  return `${places.slice(0, 2).join(", ")} and ${places.length - 2} more`;
}

function queryOf(use: ToolUseBlock | undefined): string | null {
  const q = (use?.input as { query?: unknown } | undefined)?.query;
  return typeof q === "string" ? q : null;
}

function RecallResult({ result, use }: { result: ToolResultBlock; use: ToolUseBlock | undefined }) {
  const text = toolResultText(result);
  const query = queryOf(use);
  const excerpts = result.is_error ? [] : parseRecall(text);
  const title = result.is_error
    ? "Recall failed"
    : excerpts.length === 0
      ? `Recalled nothing${query ? ` for “${query}”` : ""}`
      : `Recalled from ${recalledFrom(excerpts)}`;
  return (
    <details data-testid="recall-block" className="group/recall w-full max-w-[min(100%,46rem)] rounded-xl border border-zinc-200 bg-zinc-50 text-sm dark:border-zinc-800 dark:bg-zinc-900/60">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-3 py-2 text-zinc-700 hover:bg-zinc-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60">
        {result.is_error ? (
          <TriangleAlert aria-hidden className="h-4 w-4 shrink-0 text-amber-600" />
        ) : (
          <History aria-hidden className="h-4 w-4 shrink-0 text-sky-600 dark:text-sky-400" />
        )}
        <span className="min-w-0 flex-1 truncate font-medium">{title}</span>
        {excerpts.length > 0 && (
          <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">
            {excerpts.length} excerpt{excerpts.length === 1 ? "" : "s"}
          </span>
        )}
      </summary>
      <div className="space-y-3 border-t border-zinc-200 px-3 py-3 dark:border-zinc-800">
        {query && <p className="text-xs text-zinc-500 dark:text-zinc-400">Searched for “{query}”</p>}
        {excerpts.length === 0 ? (
          <PlainText text={text} />
        ) : (
          <ol className="space-y-3">
            {excerpts.map((e, i) => (
              <li key={`${e.sessionId}-${e.seq}-${i}`} data-testid="recall-excerpt" className="space-y-1">
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  <span className="font-medium text-zinc-700 dark:text-zinc-300">{e.sessionTitle ?? "This conversation"}</span>
                  {" · "}
                  {e.role === "user" ? "you" : "Claude"}
                  {e.file ? ` attached ${e.file.name}, page ${e.file.page}` : ""} · {e.date} · message {e.seq}
                </p>
                <div className="rounded-lg bg-white px-3 py-2 text-zinc-800 ring-1 ring-inset ring-zinc-200 dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800">
                  <PlainText text={e.text} />
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
    </details>
  );
}

/**
 * open_file's text as Claude got it, made readable: file-open.ts writes the file's name first (the
 * title already says it) and a "--- page 3 of 5 ---" line before each page, shown here as a label.
 */
function OpenedFileText({ text }: { text: string }) {
  const [head, ...rest] = text.split(/^--- ((?:page|part) \d+(?: of \d+)?) ---$/m);
  if (rest.length < 2) return <PlainText text={text} />;
  const intro = /^"[^\n]*"$/.test(head.trim()) ? "" : head.trim();
  const pages: { label: string; body: string }[] = [];
  for (let i = 0; i + 1 < rest.length; i += 2) pages.push({ label: rest[i], body: rest[i + 1].trim() });
  return (
    <div className="space-y-3">
      {intro && <PlainText text={intro} />}
      {pages.map((p, i) => (
        <section key={`${p.label}-${i}`} data-testid="opened-page" className="space-y-1">
          <p className="text-xs font-medium text-zinc-500 first-letter:uppercase dark:text-zinc-400">{p.label}</p>
          <PlainText text={p.body} />
        </section>
      ))}
    </div>
  );
}

function GenericResult({ result, use }: { result: ToolResultBlock; use: ToolUseBlock | undefined }) {
  // Images, documents and search results show beneath the row, seen without opening it.
  const media = typeof result.content === "string" ? [] : (result.content ?? []).filter((p) => p.type !== "text");
  const text = typeof result.content === "string" ? result.content : typedText(result.content ?? []);
  const opened = use?.name === OPEN_FILE_TOOL_NAME;
  const label = opened ? openedFile(use.input, text, result.is_error === true) : `${result.is_error ? "Tool failed" : "Tool result"}${use ? `: ${use.name}` : ""}`;
  return (
    <div data-testid="tool-result" data-tool={use?.name} className="w-full max-w-[min(100%,46rem)] rounded-xl border border-zinc-200 bg-zinc-50 text-sm dark:border-zinc-800 dark:bg-zinc-900/60">
      <details>
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-3 py-2 text-zinc-700 hover:bg-zinc-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60">
          {result.is_error ? (
            <TriangleAlert aria-hidden className="h-4 w-4 shrink-0 text-amber-600" />
          ) : opened ? (
            <FileText aria-hidden className="h-4 w-4 shrink-0 text-sky-600 dark:text-sky-400" />
          ) : (
            <Wrench aria-hidden className="h-4 w-4 shrink-0" />
          )}
          <span data-testid="tool-result-label" className="min-w-0 break-words font-medium">{label}</span>
        </summary>
        <div className="border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          {!text.trim() ? (
            <p className="text-xs italic text-zinc-600 dark:text-zinc-400">No text.</p>
          ) : opened && !result.is_error ? (
            <OpenedFileText text={text} />
          ) : (
            <PlainText text={text} />
          )}
        </div>
      </details>
      {media.length > 0 && (
        <div className="px-3 pb-3">
          <ToolResultContent content={media} />
        </div>
      )}
    </div>
  );
}

/** `uses`: the tool_use blocks of the reply these results answer, to name each call. */
export function ToolResultsItem({ message, uses }: { message: MessageJson; uses: readonly ToolUseBlock[] }) {
  const results = message.content.filter((b): b is ToolResultBlock => b.type === "tool_result");
  return (
    <div data-testid="tool-results" data-seq={message.seq} className={`flex flex-col items-start gap-2 ${message.in_window ? "" : "opacity-45"}`}>
      {results.map((r) => {
        const use = uses.find((u) => u.id === r.tool_use_id);
        if (use && isCanvasTool(use.name)) return <CanvasCallLine key={r.tool_use_id} use={use} result={r} />;
        return use?.name === RECALL_TOOL_NAME ? (
          <RecallResult key={r.tool_use_id} result={r} use={use} />
        ) : (
          <GenericResult key={r.tool_use_id} result={r} use={use} />
        );
      })}
    </div>
  );
}
