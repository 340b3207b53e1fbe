"use client";
// Claude's text with its citations: a small numbered marker after each cited piece, linked to
// the source (the web page; for a document, the source's line below, which names the page),
// and the numbered sources under the text.
import { memo, useMemo, type ComponentProps, type ReactNode } from "react";
import type { Components, ExtraProps } from "react-markdown";
import { citeNumber, textWithMarkers, type CitationSource } from "@/lib/client/citations";
import { runText, type Loose } from "@/lib/client/content-blocks";
import { MarkdownText } from "@/components/markdown/MarkdownText";
import { markdownElements } from "@/components/markdown/elements";

const MARKER =
  "tk-cite ml-0.5 inline-flex min-w-[1.25rem] -translate-y-[0.35em] items-center justify-center rounded-full bg-zinc-100 px-1 text-[10px] font-semibold leading-4 text-zinc-700 no-underline ring-1 ring-inset ring-zinc-200 hover:bg-sky-100 hover:text-sky-900 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700 dark:hover:bg-sky-900 dark:hover:text-sky-100";

const EXTERNAL = { target: "_blank", rel: "noopener noreferrer nofollow" } as const;

function sourceName(s: CitationSource): string {
  return s.href ? `${s.title} (${s.label})` : `${s.title}, ${s.label}`;
}

function Marker({ source, anchor }: { source: CitationSource; anchor: string }) {
  const name = `Source ${source.n}: ${sourceName(source)}`;
  const title = source.cited ? `${sourceName(source)}\n“${source.cited}”` : sourceName(source);
  return source.href ? (
    <a data-testid="citation-marker" href={source.href} {...EXTERNAL} aria-label={name} title={title} className={MARKER}>
      {source.n}
    </a>
  ) : (
    <a data-testid="citation-marker" href={`#${anchor}-src-${source.n}`} aria-label={name} title={title} className={MARKER}>
      {source.n}
    </a>
  );
}

/** The markdown elements with citation markers in place of "#tk-cite-N" links. */
function citationElements(sources: readonly CitationSource[], anchor: string): Components {
  const Link = markdownElements.a as (p: ComponentProps<"a"> & ExtraProps) => ReactNode;
  function CiteLink(props: ComponentProps<"a"> & ExtraProps) {
    const n = citeNumber(props.href);
    const source = n === null ? undefined : sources[n - 1];
    return source ? <Marker source={source} anchor={anchor} /> : <Link {...props} />;
  }
  return { ...markdownElements, a: CiteLink };
}

/** The message's sources, numbered as its markers are. */
export function SourceList({ sources, anchor }: { sources: readonly CitationSource[]; anchor: string }) {
  return (
    <ol aria-label="Sources" data-testid="citation-sources" className="flex flex-wrap gap-1.5 border-t border-zinc-200 pt-2.5 dark:border-zinc-800">
      {sources.map((s) => (
        <li key={s.n} id={`${anchor}-src-${s.n}`} className="min-w-0 max-w-full">
          {s.href ? (
            <a
              href={s.href}
              {...EXTERNAL}
              title={s.title}
              className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-zinc-200 px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              <span className="font-semibold tabular-nums">{s.n}</span>
              <span className="truncate">{s.label}</span>
            </a>
          ) : (
            <span title={s.cited ?? s.title} className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-zinc-200 px-2 py-0.5 text-xs text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
              <span className="font-semibold tabular-nums">{s.n}</span>
              <span className="truncate">
                {s.title}, {s.label}
              </span>
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

const NO_SOURCES: readonly CitationSource[] = [];

/**
 * A run of Claude's text blocks as one markdown text, a marker after each cited piece.
 * `sources` and `marks` come from numberRuns over the whole message; `anchor` is unique in the
 * page (the message's id), for the links from markers to the source list.
 */
export const TextRun = memo(function TextRun({
  blocks,
  marks,
  sources = NO_SOURCES,
  anchor,
  streaming = false,
}: {
  blocks: readonly Loose[];
  marks?: readonly number[][];
  sources?: readonly CitationSource[];
  anchor: string;
  streaming?: boolean;
}) {
  const cited = marks?.some((m) => m.length > 0) ?? false;
  const text = useMemo(() => (cited && marks ? textWithMarkers(blocks, marks) : runText(blocks)), [blocks, marks, cited]);
  const components = useMemo(() => (cited ? citationElements(sources, anchor) : markdownElements), [cited, sources, anchor]);
  if (text.trim() === "") return null;
  return <MarkdownText text={text} streaming={streaming} components={components} />;
});
