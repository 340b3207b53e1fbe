"use client";
// Plain text with fenced code blocks set apart. No markdown library: whitespace is kept
// as written, which is what matters for code and logs pasted into a chat.

type Part = { kind: "text"; text: string } | { kind: "code"; lang: string; code: string };

// An unclosed fence (common mid-stream) runs to the end of the text.
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

export function MessageText({ text, caret }: { text: string; caret?: boolean }) {
  const parts = splitFences(text);
  const last = parts.length - 1;
  // The caret sits at the end of the last line of prose so it follows the words as they arrive.
  const caretInline = caret && parts[last]?.kind === "text";
  return (
    <div className="min-w-0 space-y-2 break-words text-sm leading-relaxed">
      {parts.map((p, i) =>
        p.kind === "code" ? (
          <pre
            key={i}
            className="overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-[13px] leading-snug text-zinc-100"
            aria-label={p.lang ? `${p.lang} code` : "code"}
          >
            <code>{p.code}</code>
          </pre>
        ) : (
          <p key={i} className="whitespace-pre-wrap">
            {p.text.replace(/^\n+|\n+$/g, "")}
            {caretInline && i === last && <StreamingCaret />}
          </p>
        ),
      )}
      {caret && !caretInline && <StreamingCaret />}
    </div>
  );
}

function StreamingCaret() {
  return (
    <span
      data-testid="streaming-caret"
      aria-hidden
      className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-tk-pulse rounded-sm bg-zinc-500"
    />
  );
}
