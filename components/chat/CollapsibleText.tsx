"use client";
// Long pasted messages (logs, files) would bury the conversation; they open on request.
import { useState } from "react";
import { messagePreview } from "@/lib/client/message-text";
import { MarkdownText } from "@/components/markdown/MarkdownText";
import { PlainText } from "@/components/chat/PlainText";

const COLLAPSE_OVER_CHARS = 4_000;
const PREVIEW_CHARS = 1_200;

/** `markdown`: Claude's words, rendered; `plain`: the user's, shown as typed (on the dark bubble). */
export function CollapsibleText({ text, format }: { text: string; format: "markdown" | "plain" }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > COLLAPSE_OVER_CHARS;
  const shown = long && !expanded ? messagePreview(text, PREVIEW_CHARS) : text;
  return (
    <div className="min-w-0">
      {format === "markdown" ? <MarkdownText text={shown} /> : <PlainText text={shown} />}
      {long && (
        <button
          type="button"
          data-testid="expand-message"
          aria-expanded={expanded}
          onClick={() => setExpanded((v) => !v)}
          className={`mt-2 rounded px-2 py-0.5 text-xs font-medium underline-offset-2 hover:underline ${
            format === "plain" ? "text-zinc-300" : "text-sky-700 dark:text-sky-400"
          }`}
        >
          {expanded ? "Show less" : `Show full message (${text.length.toLocaleString("en-US")} characters)`}
        </button>
      )}
    </div>
  );
}
