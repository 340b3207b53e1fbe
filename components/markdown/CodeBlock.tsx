"use client";
// A code block with its language and a copy button above the code, where they stay visible
// on touch screens (no hover needed) and never cover the first line.
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/CopyButton";

const TONES = {
  /** Follows the theme: Claude's replies and summaries. */
  auto: {
    frame: "border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950",
    bar: "border-zinc-200 text-zinc-500 dark:border-zinc-800 dark:text-zinc-400",
    button: "text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100",
    code: "text-zinc-800 dark:text-zinc-200",
  },
  /** Inside the dark bubble of the user's own messages. */
  inverse: {
    frame: "border-white/10 bg-black/25",
    bar: "border-white/10 text-zinc-400",
    button: "text-zinc-300 hover:bg-white/10 hover:text-white",
    code: "text-zinc-100",
  },
} as const;

export function CodeBlock({
  language,
  code,
  tone = "auto",
  children,
}: {
  language: string;
  /** Exactly what the copy button copies. */
  code: string;
  tone?: keyof typeof TONES;
  /** The rendered code: highlighted spans, or the plain text. */
  children: ReactNode;
}) {
  const t = TONES[tone];
  return (
    <div data-testid="code-block" data-language={language} className={`tk-code-block my-3 overflow-hidden rounded-lg border first:mt-0 last:mb-0 ${t.frame}`}>
      <div className={`flex items-center justify-between gap-2 border-b py-1 pl-3 pr-1.5 ${t.bar}`}>
        <span className="truncate font-mono text-[11px] lowercase">{language || "text"}</span>
        <CopyButton text={code} label={language ? `Copy ${language} code` : "Copy code"} className={t.button} />
      </div>
      <pre
        className={`overflow-x-auto px-3.5 py-3 font-mono text-[13px] leading-relaxed ${t.code}`}
        aria-label={language ? `${language} code` : "code"}
        tabIndex={0}
      >
        {children}
      </pre>
    </div>
  );
}
