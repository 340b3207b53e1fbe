"use client";
// What the user typed, shown as typed: plain text with its whitespace, and fenced code
// blocks set apart (with a copy button). Users write plain text, so `*`, `_` or `#` in a
// pasted log or path must not turn into formatting.
import { memo } from "react";
import { CodeBlock } from "@/components/markdown/CodeBlock";

type Part = { kind: "text"; text: string } | { kind: "code"; lang: string; code: string };

// An unclosed fence runs to the end of the text.
const FENCE = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g;

function splitFences(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(FENCE)) {
    const start = m.index ?? 0;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    parts.push({ kind: "code", lang: m[1].trim(), code: m[2].replace(/\n$/, "") });
    last = start + m[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

export const PlainText = memo(function PlainText({ text }: { text: string }) {
  return (
    <div className="min-w-0 space-y-2 break-words text-sm leading-relaxed">
      {splitFences(text).map((p, i) =>
        p.kind === "code" ? (
          <CodeBlock key={i} language={p.lang} code={p.code} tone="inverse">
            <code>{p.code}</code>
          </CodeBlock>
        ) : (
          <p key={i} className="whitespace-pre-wrap">
            {p.text.replace(/^\n+|\n+$/g, "")}
          </p>
        ),
      )}
    </div>
  );
});
