"use client";
// Claude's replies and summaries as GitHub-flavoured markdown with highlighted code.
//
// Safety: raw HTML in the text is shown as text, never parsed (no rehype-raw), and every
// link and image address passes react-markdown's defaultUrlTransform, which empties
// javascript:, data:, vbscript: and other non-web addresses.
//
// Memoized on the text: a saved message parses once, so a streaming token re-renders only
// the reply that is streaming, never the whole history.
import { memo } from "react";
import Markdown, { defaultUrlTransform, type Components, type Options } from "react-markdown";
import rehypeHighlight, { type Options as HighlightOptions } from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { markdownElements } from "@/components/markdown/elements";
import { rehypeStreamingCaret } from "@/components/markdown/streaming-caret";

type Plugins = NonNullable<Options["rehypePlugins"]>;

const REMARK_PLUGINS: Plugins = [remarkGfm];
// Only code blocks that name their language are highlighted: guessing costs a pass of
// every grammar over the code, and guesses wrong on logs and prose.
const HIGHLIGHT: HighlightOptions = { detect: false };
// rehype-highlight's attacher makes a lowlight instance and registers every common grammar, and
// react-markdown runs attachers on each render: a row coming into view paid for it every time
// (a fifth of the list's rendering time). Attached once here, the grammars register, and compile on
// first use, once per page.
const highlight = rehypeHighlight(HIGHLIGHT);
const REHYPE_PLUGINS: Plugins = [() => highlight];
const REHYPE_STREAMING: Plugins = [...REHYPE_PLUGINS, rehypeStreamingCaret];

/** `components`: the elements to use instead of the defaults (citation markers); keep it stable across renders. */
export const MarkdownText = memo(function MarkdownText({
  text,
  streaming = false,
  components = markdownElements,
}: {
  text: string;
  streaming?: boolean;
  components?: Components;
}) {
  return (
    <div className="tk-markdown min-w-0 break-words text-sm leading-relaxed" data-testid="markdown">
      <Markdown
        remarkPlugins={REMARK_PLUGINS}
        rehypePlugins={streaming ? REHYPE_STREAMING : REHYPE_PLUGINS}
        components={components}
        urlTransform={defaultUrlTransform}
      >
        {text}
      </Markdown>
    </div>
  );
});
