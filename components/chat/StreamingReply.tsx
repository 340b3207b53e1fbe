"use client";
// The reply while it streams: words appear as deltas arrive, with a caret until it is saved.
// When the stream carries Claude's blocks, thinking shows live ("Thinking… 4 s", the text as
// it is thought), then the tools and the text, drawn like the saved reply.
import { useDeferredValue, useMemo } from "react";
import { groupBlocks } from "@/lib/client/content-blocks";
import { streamedContent, thinkingTimings, type StreamBlock } from "@/lib/client/stream-blocks";
import { MarkdownText } from "@/components/markdown/MarkdownText";
import { BlockItems } from "@/components/chat/blocks/BlockItems";

const NO_BLOCKS: readonly StreamBlock[] = [];

export function StreamingReply({ text, blocks = NO_BLOCKS }: { text: string; blocks?: readonly StreamBlock[] }) {
  // Parsing a long reply on every delta can fall behind a fast stream; a deferred value
  // lets React skip to the newest text instead of rendering each one in turn.
  const shown = useDeferredValue(text);
  const streamed = useDeferredValue(blocks);
  const items = useMemo(() => groupBlocks(streamedContent(streamed)), [streamed]);
  const timings = useMemo(() => thinkingTimings(streamed), [streamed]);
  // Only text blocks so far: the text deltas are as good, and the older path is proven.
  const blockView = items.some((i) => i.kind !== "text");
  const last = items[items.length - 1];
  const waiting = blockView && last?.kind !== "text";
  return (
    <article
      data-testid="streaming-reply"
      data-role="assistant"
      data-status="streaming"
      aria-live="polite"
      aria-busy="true"
      aria-label="Claude is replying"
      className="flex flex-col items-start gap-1"
    >
      <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Claude</span>
      <div
        className={`max-w-[min(100%,46rem)] rounded-2xl border border-zinc-200 bg-white px-4 py-2.5 text-zinc-900 shadow-sm dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100 ${blockView ? "w-full" : ""}`}
      >
        {blockView ? (
          <>
            <BlockItems items={items} anchor="streaming" timing={{ live: timings }} streaming />
            {waiting && last?.kind !== "thinking" && <span className="tk-caret mt-1 inline-block" aria-hidden />}
          </>
        ) : shown ? (
          <MarkdownText text={shown} streaming />
        ) : (
          <span className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
            Thinking
            <span className="tk-caret" aria-hidden />
          </span>
        )}
      </div>
    </article>
  );
}
