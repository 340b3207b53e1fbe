"use client";
// Claude's thinking as a quiet row: "Thought for 12 s", open on request to the thinking in a
// muted style. While the reply streams: "Thinking… 4 s", the seconds ticking, the text growing.
// Empty thinking (display "omitted") and redacted thinking have nothing to open.
import { useEffect, useState } from "react";
import { Brain, EyeOff } from "lucide-react";
import { str, thinkingLabel, type Loose } from "@/lib/client/content-blocks";
import { Disclosure, StaticRow } from "@/components/chat/blocks/Disclosure";

/** Re-renders every second while `on`, for a ticking clock. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

export function ThinkingBlock({
  block,
  ms = null,
  startedAt = null,
}: {
  block: Loose;
  /** How long it took, when this client timed it. */
  ms?: number | null;
  /** Still streaming: when it started (and `ms` is null until it stops). */
  startedAt?: number | null;
}) {
  const live = startedAt !== null && ms === null;
  const now = useNow(live);
  const text = str(block.thinking) ?? "";
  const label = thinkingLabel(block, live ? Math.max(0, now - (startedAt ?? now)) : ms, live);
  const icon = <Brain className={`h-3.5 w-3.5 ${live ? "animate-pulse text-sky-600 dark:text-sky-400" : ""}`} />;

  if (str(block.type) === "redacted_thinking") {
    return (
      <StaticRow
        testId="thinking-block"
        icon={<EyeOff className="h-3.5 w-3.5" />}
        label={label}
        title="This part of Claude's reasoning was encrypted for safety reasons. It is kept and sent back to Claude, but cannot be shown."
      />
    );
  }
  if (text.trim() === "" && !live) {
    return <StaticRow testId="thinking-block" icon={icon} label={label} title="Claude thought here; the thinking text was not returned." />;
  }
  return (
    <Disclosure
      testId="thinking-block"
      icon={icon}
      label={
        live ? (
          // The seconds tick inside the reply's live region: a screen reader hears "Thinking" once.
          <>
            <span className="sr-only">Thinking</span>
            <span aria-hidden className="tabular-nums">
              {label}
            </span>
          </>
        ) : (
          label
        )
      }
    >
      {text ? (
        <div
          data-testid="thinking-text"
          tabIndex={0}
          aria-label="Claude's thinking"
          className="max-h-[28rem] overflow-y-auto whitespace-pre-wrap break-words py-0.5 text-[13px] leading-relaxed text-zinc-600 dark:text-zinc-400"
        >
          {text}
        </div>
      ) : (
        <p className="py-0.5 text-[13px] italic text-zinc-500 dark:text-zinc-400">Waiting for the first thoughts…</p>
      )}
    </Disclosure>
  );
}
