"use client";
// The smaller kinds of block: a mid-conversation system note, a block of a kind we do not know,
// a search result the user passed, a file uploaded to the code container, a tool call of the
// caller's own, and a tool result's content (text, images, documents) wherever it appears.
import { Box, FileUp, Info, Puzzle, Search, TriangleAlert, Wrench } from "lucide-react";
import { asRecord, domainOf, list, prettyJson, safeHref, str, type Loose } from "@/lib/client/content-blocks";
import { Disclosure, Pre, StaticRow } from "@/components/chat/blocks/Disclosure";
import { DocumentCard } from "@/components/chat/blocks/DocumentCard";
import { ImageThumb } from "@/components/chat/blocks/ImageThumb";
import { PlainText } from "@/components/chat/PlainText";

const ICON = "h-3.5 w-3.5";

/** A system message's text, whether a string or text blocks. */
export function systemNoteText(block: Loose): string {
  const c = block.content;
  if (typeof c === "string") return c;
  return list(c)
    .map((p) => str(asRecord(p)?.text) ?? "")
    .filter(Boolean)
    .join("\n");
}

export function SystemNote({ block }: { block: Loose }) {
  const text = systemNoteText(block);
  return (
    <Disclosure testId="system-note" icon={<Info className={ICON} />} label="System note">
      <div className="py-1 text-zinc-700 dark:text-zinc-300">{text ? <PlainText text={text} /> : <p className="italic">(empty)</p>}</div>
    </Disclosure>
  );
}

export function UnsupportedBlock({ type, value }: { type: string; value: unknown }) {
  return (
    <Disclosure testId="unsupported-block" icon={<Puzzle className={ICON} />} label={`Unsupported block: ${type}`}>
      <div className="py-1">
        <Pre label={`${type} block`} text={prettyJson(value)} />
      </div>
    </Disclosure>
  );
}

export function SearchResultCard({ block }: { block: Loose }) {
  const source = str(block.source) ?? "";
  const href = safeHref(source);
  const title = str(block.title)?.trim() || (href ? domainOf(href) : source || "Search result");
  const text = list(block.content)
    .map((p) => str(asRecord(p)?.text) ?? "")
    .filter(Boolean)
    .join("\n\n");
  return (
    <Disclosure testId="search-result" icon={<Search className={ICON} />} label={`Search result: ${title}`} meta={href ? domainOf(href) : null}>
      <div className="space-y-1 py-1">
        {href && (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="block break-all text-xs text-sky-800 hover:underline dark:text-sky-300">
            {href}
          </a>
        )}
        {text && <PlainText text={text} />}
      </div>
    </Disclosure>
  );
}

export function ContainerUpload({ block }: { block: Loose }) {
  const id = str(block.file_id);
  return <StaticRow testId="container-upload" icon={<FileUp className={ICON} />} label={`File added to the code container${id ? ` (${id})` : ""}`} />;
}

/** A call of one of the caller's own tools, as a line (its result shows with the next message). */
export function ToolUseLine({ block }: { block: Loose }) {
  return <StaticRow testId="tool-use" icon={<Wrench className={ICON} />} label={`Tool call: ${str(block.name) ?? "a tool"}`} />;
}

/** A tool result's content: its text, then its images as thumbnails and its documents as cards. */
export function ToolResultContent({ content }: { content: unknown }) {
  if (typeof content === "string") return content ? <PlainText text={content} /> : null;
  const parts = list(content).map(asRecord).filter((p): p is Loose => p !== null);
  const text = parts
    .filter((p) => str(p.type) === "text")
    .map((p) => str(p.text) ?? "")
    .join("\n");
  const media = parts.filter((p) => str(p.type) !== "text");
  return (
    <div className="space-y-2">
      {text && <PlainText text={text} />}
      {media.length > 0 && (
        <div className="flex flex-wrap items-start gap-2" data-testid="tool-result-media">
          {media.map((p, i) => {
            const type = str(p.type);
            if (type === "image") return <ImageThumb key={i} block={p} />;
            if (type === "document") return <DocumentCard key={i} block={p} />;
            if (type === "search_result") return <SearchResultCard key={i} block={p} />;
            return <UnsupportedBlock key={i} type={type ?? "unknown"} value={p} />;
          })}
        </div>
      )}
    </div>
  );
}

/** A tool_result block inside a message of another kind (the usual ones show as ToolResultsItem). */
export function ToolResultRow({ block }: { block: Loose }) {
  const failed = block.is_error === true;
  return (
    <Disclosure testId="tool-result-row" icon={failed ? <TriangleAlert className={ICON} /> : <Box className={ICON} />} label={failed ? "Tool failed" : "Tool result"}>
      <div className="py-1">
        <ToolResultContent content={block.content} />
      </div>
    </Disclosure>
  );
}
