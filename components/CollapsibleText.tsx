"use client";
// Long pasted messages (logs, files) would bury the conversation; they open on request.
import { useState } from "react";
import { MessageText } from "@/components/MessageText";

const COLLAPSE_OVER_CHARS = 4_000;
const PREVIEW_CHARS = 1_200;

export function CollapsibleText({ text, tone }: { text: string; tone: "light" | "dark" }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > COLLAPSE_OVER_CHARS;
  if (!long) return <MessageText text={text} />;
  return (
    <div>
      <MessageText text={expanded ? text : `${text.slice(0, PREVIEW_CHARS).trimEnd()} …`} />
      <button
        type="button"
        data-testid="expand-message"
        aria-expanded={expanded}
        onClick={() => setExpanded((v) => !v)}
        className={`mt-2 rounded px-2 py-0.5 text-xs font-medium underline-offset-2 hover:underline ${
          tone === "dark" ? "text-zinc-300" : "text-sky-700"
        }`}
      >
        {expanded ? "Show less" : `Show full message (${text.length.toLocaleString("en-US")} characters)`}
      </button>
    </div>
  );
}
