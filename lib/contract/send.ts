import { z } from "zod";
import { count, described, named } from "./meta";
import { canvasStreamEvent } from "./canvas";
import { checkpoint } from "./checkpoints";
import { compaction, contextStatus } from "./context";
import { apiError } from "./errors";
import { loadedMemory } from "./memory";
import { message } from "./messages";

export const notice = named(
  "Notice",
  z.object({
    kind: described(z.string(), "window_slid, overflow_recovery, compaction_warning or compaction_fallback."),
    message: z.string(),
  }),
);

export const sendResult = named(
  "SendResult",
  z.object({
    user_message: message,
    assistant_message: message.nullable(),
    status: contextStatus,
    notices: z.array(notice),
    error: apiError.shape.error.optional(),
  }),
  "The JSON answer of a send (Accept: application/json).",
);

const frame = <E extends string, D extends z.ZodType>(event: E, data: D) => z.object({ event: z.literal(event), data });

/** The Server-Sent Events of a send, as `{ event, data }` pairs. */
export const sendEvent = named(
  "SendEvent",
  z.discriminatedUnion("event", [
    frame("user_message", message),
    frame("notice", notice),
    frame(
      "usage",
      described(
        z.object({
          input_tokens: count(),
          cache_creation_input_tokens: count(),
          cache_read_input_tokens: count(),
          output_tokens: count(),
          measured: z.boolean(),
        }),
        "The input of a call to Claude as its reply starts: Claude's own counts from its message_start (`measured`), or, when the offline responder answers, Threadkeeper's calibrated estimate of the request. Each call of a tool loop sends one.",
      ),
    ),
    frame("delta", z.object({ text: z.string() })),
    frame(
      "block",
      described(
        z.looseObject({ type: z.enum(["content_block_start", "content_block_delta", "content_block_stop"]), index: count() }),
        "Claude's streaming event for a block of the reply, as the Messages API sends it (thinking_delta and signature_delta included); `index` counts the blocks of one reply.",
      ),
    ),
    frame("assistant_message", message),
    frame("status", contextStatus),
    frame("memories", z.object({ loaded: z.array(loadedMemory), tokens: count() })),
    frame("checkpoint", checkpoint),
    frame("canvas", canvasStreamEvent),
    frame("compaction", compaction),
    frame("error", apiError),
    frame("done", z.record(z.string(), z.never())),
  ]),
  "One Server-Sent Event of a send: the frame `event: <event>` / `data: <data as JSON>`. In order: user_message; memories (a session's first message); notice and compaction (when the window had to be made to fit); usage (as each call to Claude starts); many delta (the reply's text) and block (every block's streaming event, thinking included); assistant_message (status complete or interrupted); canvas after a tool round's results when Claude changed the canvas; error on failure; status; then, after the turn, checkpoint, compaction and a fresh status when they ran; done last. A tool-use loop repeats user_message (tool results) and assistant_message within the turn.",
);

export type SendEvent = z.infer<typeof sendEvent>;
export type SendResultJson = z.infer<typeof sendResult>;
