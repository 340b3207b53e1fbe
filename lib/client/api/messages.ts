// A session's messages (/api/session/{id}/messages): pages of history, and a send whose
// reply streams back as Server-Sent Events; /stop ends a reply being written.
import type { Attachment, MessagesPageJson, SendEvent } from "@/lib/contract";
import { ApiError, json, send } from "@/lib/client/api/http";
import { readSseFrames, toSendEvent } from "@/lib/client/sse";

const enc = encodeURIComponent;

export async function listMessages(
  sessionId: string,
  opts: { beforeSeq?: number; limit?: number } = {},
): Promise<MessagesPageJson> {
  const q = new URLSearchParams();
  if (opts.beforeSeq !== undefined) q.set("before_seq", String(opts.beforeSeq));
  if (opts.limit !== undefined) q.set("limit", String(opts.limit));
  const qs = q.toString();
  return json<MessagesPageJson>(`/api/session/${enc(sessionId)}/messages${qs ? `?${qs}` : ""}`);
}

/**
 * A new message (its text, its files, or both), or `retry` to have the last user message answered
 * again without repeating it.
 */
export type SendBody = { content?: string; attachments?: Attachment[]; edit_of?: string } | { retry: true } | { regenerate: true; reply_id?: string };

/** Asks the server to stop the reply being written in the session (202; 409 when none is). */
export async function stopReply(sessionId: string): Promise<void> {
  await send(`/api/session/${enc(sessionId)}/stop`, { method: "POST" });
}

/**
 * Posts a message and yields the reply's events as they stream. The idempotency key lets
 * the server drop a duplicate if the same send is delivered twice.
 */
export async function* streamMessage(
  sessionId: string,
  body: SendBody,
  opts: { signal?: AbortSignal; idempotencyKey?: string } = {},
): AsyncGenerator<SendEvent> {
  const res = await send(`/api/session/${enc(sessionId)}/messages`, {
    method: "POST",
    signal: opts.signal,
    headers: {
      "Content-Type": "application/json",
      Accept: "text/event-stream",
      ...(opts.idempotencyKey ? { "Idempotency-Key": opts.idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.body) throw new ApiError(res.status, "empty_stream", "The server answered without a reply stream.");
  for await (const frame of readSseFrames(res.body, opts.signal)) {
    const event = toSendEvent(frame);
    if (event) yield event;
  }
}
