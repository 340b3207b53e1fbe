import "server-only";
import type { SendEvent } from "@/lib/contract";
import type { PreparedSend } from "@/lib/turn/send";

/** What every event stream is answered with: no caching or buffering by a proxy between. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

/**
 * A Server-Sent Events answer: `produce` writes its frames with `send`. What it runs goes on to
 * its end even if the client goes away (frames are then dropped), so a reply is still saved.
 */
export function eventStream(produce: (send: (frame: string) => void) => Promise<void>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (frame: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(frame));
        } catch {
          open = false;
        }
      };
      await produce(send);
      if (open) controller.close();
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}

/** Streams a send as Server-Sent Events; the turn runs to the end even if the client goes away. */
export function sseResponse(prepared: PreparedSend): Response {
  return eventStream(async (send) => {
    const emit = (e: SendEvent) => send(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
    if (prepared.kind === "replay") prepared.events.forEach(emit);
    else await prepared.run(emit);
  });
}
