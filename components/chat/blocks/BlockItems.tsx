"use client";
// A message's render items (lib/client/content-blocks.ts groupBlocks) drawn in order: text as
// markdown with its citations, thinking as a quiet row, tools with their results, documents,
// images, notes. The saved reply and the streaming one draw through the same code.
import { useMemo } from "react";
import { str, type RenderItem } from "@/lib/client/content-blocks";
import { numberRuns, type CitationSource } from "@/lib/client/citations";
import type { ThinkingTiming } from "@/lib/client/stream-blocks";
import { isCanvasTool } from "@/lib/canvas/tools";
import { RECALL_TOOL_NAME } from "@/lib/context/recall";
import { OPEN_FILE_TOOL_NAME } from "@/lib/context/files";
import { openingFile } from "@/components/chat/open-file";
import { SourceList, TextRun } from "@/components/chat/blocks/Citations";
import { DocumentCard } from "@/components/chat/blocks/DocumentCard";
import { ImageThumb } from "@/components/chat/blocks/ImageThumb";
import { FileReferenceCard } from "@/components/chat/blocks/FileBlocks";
import { McpToolBlock, ServerToolBlock } from "@/components/chat/blocks/ServerToolBlock";
import { ThinkingBlock } from "@/components/chat/blocks/ThinkingBlock";
import { ContainerUpload, SearchResultCard, SystemNote, ToolResultRow, ToolUseLine, UnsupportedBlock } from "@/components/chat/blocks/MiscBlocks";
import { PlainText } from "@/components/chat/PlainText";
import { StaticRow } from "@/components/chat/blocks/Disclosure";
import { FileText, History } from "lucide-react";

export interface BlockTiming {
  /** Durations of a saved reply's thinking blocks (ms, in order), when this client timed them. */
  thinkingMs?: readonly (number | null)[];
  /** The streaming reply's thinking blocks: when each started and stopped. */
  live?: readonly ThinkingTiming[];
}

interface Cites {
  sources: readonly CitationSource[];
  /** Per text item (by key): the source numbers of each of its blocks. */
  marks: ReadonlyMap<string, number[][]>;
}

function Item({ item, anchor, timing, streaming, plain, cites }: { item: RenderItem; anchor: string; timing: BlockTiming; streaming: boolean; plain: boolean; cites: Cites }) {
  switch (item.kind) {
    case "text":
      if (plain) {
        const text = item.blocks.map((b) => str(b.text) ?? "").join("");
        return text.trim() ? <PlainText text={text} /> : null;
      }
      return <TextRun blocks={item.blocks} marks={cites.marks.get(item.key)} sources={cites.sources} anchor={anchor} streaming={streaming} />;
    case "thinking": {
      const live = timing.live?.[item.ordinal];
      const ms = live ? (live.stoppedAt === null ? null : live.stoppedAt - live.startedAt) : (timing.thinkingMs?.[item.ordinal] ?? null);
      return <ThinkingBlock block={item.block} ms={ms} startedAt={live && streaming ? live.startedAt : null} />;
    }
    case "server_tool":
      return <ServerToolBlock use={item.use} result={item.result} live={streaming} />;
    case "mcp_tool":
      return <McpToolBlock use={item.use} result={item.result} live={streaming} />;
    case "tool_use": {
      const name = str(item.block.name) ?? "";
      if (isCanvasTool(name)) return null;
      if (name === OPEN_FILE_TOOL_NAME) return <StaticRow testId="tool-use" icon={<FileText className="h-3.5 w-3.5" />} label={openingFile(item.block.input)} />;
      if (name === RECALL_TOOL_NAME) {
        const query = str((item.block.input as { query?: unknown } | null)?.query);
        return <StaticRow testId="tool-use" icon={<History className="h-3.5 w-3.5" />} label={`Searching the history${query ? ` for “${query}”` : ""}…`} />;
      }
      return <ToolUseLine block={item.block} />;
    }
    case "tool_result":
      return <ToolResultRow block={item.block} />;
    case "image":
      return <ImageThumb block={item.block} />;
    case "document":
      return <DocumentCard block={item.block} />;
    case "search_result":
      return <SearchResultCard block={item.block} />;
    case "system_message":
      return <SystemNote block={item.block} />;
    case "container_upload":
      return <ContainerUpload block={item.block} />;
    case "file_reference":
      return <FileReferenceCard block={item.block} />;
    case "opaque":
      return <UnsupportedBlock type={item.type} value={item.value} />;
  }
}

/**
 * `anchor`: unique in the page (the message's id), for links from citation markers to their
 * sources. `plain`: text as typed (the user's), not markdown.
 */
export function BlockItems({
  items,
  anchor,
  timing = {},
  streaming = false,
  plain = false,
  className = "flex min-w-0 flex-col gap-2",
}: {
  items: readonly RenderItem[];
  anchor: string;
  timing?: BlockTiming;
  streaming?: boolean;
  plain?: boolean;
  className?: string;
}) {
  const cites = useMemo((): Cites => {
    const runs = items.flatMap((i) => (i.kind === "text" ? [i] : []));
    const { sources, marks } = numberRuns(runs.map((r) => r.blocks));
    return { sources, marks: new Map(runs.map((r, i) => [r.key, marks[i]])) };
  }, [items]);
  if (items.length === 0) return null;
  return (
    <div className={className}>
      {items.map((item) => (
        <Item key={item.key} item={item} anchor={anchor} timing={timing} streaming={streaming} plain={plain} cites={cites} />
      ))}
      {cites.sources.length > 0 && !streaming && !plain && <SourceList sources={cites.sources} anchor={anchor} />}
    </div>
  );
}
