// Server-Sent Events over a fetch body. EventSource cannot POST, and sending a message
// must be a POST, so the frames are parsed here by hand.
import type { SendEvent } from "@/lib/contract";

export interface SseFrame {
  event: string;
  data: string;
}

/**
 * Splits a stream into frames. Chunks can end anywhere (mid-line, mid-character), so
 * bytes are decoded in streaming mode and only complete blank-line-terminated frames
 * are emitted.
 */
export async function* readSseFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { value, done } = await reader.read();
      if (done) break;
      // The spec allows CRLF and lone CR as line ends; normalising once keeps the split simple.
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const frame = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (frame) yield frame;
      }
    }
    buffer += decoder.decode();
    // A server that closes without the final blank line still meant its last frame.
    const tail = parseFrame(buffer.trim());
    if (tail) yield tail;
  } finally {
    reader.releaseLock();
  }
}

function parseFrame(text: string): SseFrame | null {
  if (!text) return null;
  let event = "message";
  const data: string[] = [];
  for (const line of text.split("\n")) {
    // Lines starting with ":" are keep-alive comments.
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0 && event === "message") return null;
  return { event, data: data.join("\n") };
}

// Every event of the contract, as a record so a new one cannot be forgotten here (tsc says so).
const KNOWN: Record<SendEvent["event"], true> = {
  user_message: true,
  notice: true,
  usage: true,
  delta: true,
  block: true,
  assistant_message: true,
  status: true,
  memories: true,
  compaction: true,
  checkpoint: true,
  canvas: true,
  error: true,
  done: true,
};
const SEND_EVENTS = new Set(Object.keys(KNOWN));

/** Narrows a raw frame to a SendEvent; unknown events are skipped so the server can add new ones. */
export function toSendEvent(frame: SseFrame): SendEvent | null {
  if (!SEND_EVENTS.has(frame.event)) return null;
  let data: unknown = {};
  if (frame.data.trim() !== "") {
    try {
      data = JSON.parse(frame.data);
    } catch {
      return null;
    }
  }
  return { event: frame.event, data } as SendEvent;
}
