import "server-only";
import type { SendEvent } from "@/lib/contract";
import type { PreparedSend } from "@/lib/turn/send";

/**
 * Streams a send as Server-Sent Events. The turn runs to the end even if the client goes
 * away, so the reply is saved and visible on reload.
 */
export function sseResponse(prepared: PreparedSend): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const emit = (e: SendEvent) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`));
        } catch {
          open = false;
        }
      };
      if (prepared.kind === "replay") prepared.events.forEach(emit);
      else await prepared.run(emit);
      if (open) controller.close();
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
