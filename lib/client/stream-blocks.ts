// The blocks of the reply being written, from the send stream's `block` events (Claude's own
// content_block_start / _delta / _stop): text, thinking as it is thought (with when it started
// and stopped, timed here), tool calls as their input arrives, server tool results whole.
// Pure: the store applies a batch of events and renders `streamedContent`.
import { asRecord, num, str, type Loose } from "@/lib/client/content-blocks";

export interface StreamBlock {
  index: number;
  /** The block as content_block_start gave it, its deltas applied (text, thinking, input, citations). */
  block: Loose;
  /** The tool input's JSON as it has arrived so far. */
  json: string;
  /** When the block started and stopped on this client (ms since the epoch). */
  startedAt: number;
  stoppedAt: number | null;
}

/** One `block` event and when it arrived. */
export interface TimedBlockEvent {
  data: Loose;
  at: number;
}

/** A tool input that has not finished arriving: parsed when it already is whole JSON. */
function partialInput(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    // Mid-stream, the query of a web search is usually complete before the object closes.
    const q = /"(query|url|command|code)"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(json);
    return q ? { [q[1]]: q[2].replace(/\\(.)/g, "$1") } : undefined;
  }
}

function applyDelta(b: StreamBlock, delta: Loose): StreamBlock {
  const block = { ...b.block };
  switch (str(delta.type)) {
    case "text_delta":
      block.text = (str(block.text) ?? "") + (str(delta.text) ?? "");
      return { ...b, block };
    case "thinking_delta":
      block.thinking = (str(block.thinking) ?? "") + (str(delta.thinking) ?? "");
      return { ...b, block };
    case "signature_delta":
      block.signature = (str(block.signature) ?? "") + (str(delta.signature) ?? "");
      return { ...b, block };
    case "citations_delta": {
      const citation = asRecord(delta.citation);
      if (!citation) return b;
      block.citations = [...(Array.isArray(block.citations) ? block.citations : []), citation];
      return { ...b, block };
    }
    case "input_json_delta": {
      const json = b.json + (str(delta.partial_json) ?? "");
      const input = partialInput(json);
      if (input !== undefined) block.input = input;
      return { ...b, block, json };
    }
    default:
      return b;
  }
}

/** The blocks after one event; an event that makes no sense (no index, unknown type) changes nothing. */
export function applyBlockEvent(blocks: readonly StreamBlock[], data: Loose, at: number): readonly StreamBlock[] {
  const index = num(data.index);
  if (index === null) return blocks;
  const pos = blocks.findIndex((b) => b.index === index);
  const replace = (next: StreamBlock) => blocks.map((b, i) => (i === pos ? next : b));
  switch (str(data.type)) {
    case "content_block_start": {
      const start = asRecord(data.content_block) ?? { type: "unknown" };
      // Text and thinking start empty and grow; a tool's input arrives as JSON deltas.
      const block: Loose = { ...start };
      if ((block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use") && asRecord(block.input) && Object.keys(block.input as Loose).length === 0) {
        block.input = undefined;
      }
      const next: StreamBlock = { index, block, json: "", startedAt: at, stoppedAt: null };
      return pos >= 0 ? replace(next) : [...blocks, next].sort((a, b) => a.index - b.index);
    }
    case "content_block_delta": {
      const delta = asRecord(data.delta);
      if (pos < 0 || !delta) return blocks;
      return replace(applyDelta(blocks[pos], delta));
    }
    case "content_block_stop":
      if (pos < 0 || blocks[pos].stoppedAt !== null) return blocks;
      return replace({ ...blocks[pos], stoppedAt: at });
    default:
      return blocks;
  }
}

/** The reply so far as content blocks, in order, for the same renderers as a saved message. */
export function streamedContent(blocks: readonly StreamBlock[]): Loose[] {
  return blocks.map((b) => b.block);
}

/** The streamed text blocks' text, joined: what the reply says so far. */
export function streamedText(blocks: readonly StreamBlock[]): string {
  return blocks.map((b) => (b.block.type === "text" ? (str(b.block.text) ?? "") : "")).join("");
}

export interface ThinkingTiming {
  startedAt: number;
  stoppedAt: number | null;
}

/** The timing of each thinking block (thinking or redacted), in order. */
export function thinkingTimings(blocks: readonly StreamBlock[]): ThinkingTiming[] {
  return blocks
    .filter((b) => b.block.type === "thinking" || b.block.type === "redacted_thinking")
    .map((b) => ({ startedAt: b.startedAt, stoppedAt: b.stoppedAt }));
}

/** How long each thinking block took, for the saved reply: null when it never stopped. */
export function thinkingDurations(blocks: readonly StreamBlock[]): (number | null)[] {
  return thinkingTimings(blocks).map((t) => (t.stoppedAt === null ? null : Math.max(0, t.stoppedAt - t.startedAt)));
}
