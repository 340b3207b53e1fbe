import { z } from "zod";
import { count, described, named } from "./meta";

const seq = described(count(), "The session's event number after this change (also the frame's `id`).");
const frame = <E extends string, D extends z.ZodType>(event: E, data: D) => z.object({ event: z.literal(event), data });

/**
 * The Server-Sent Events of a session's live stream (GET /api/session/{id}/events). Each change
 * names what to read again, never the data itself, so a client cannot apply one twice; only a
 * reply's text as it streams travels in the event.
 */
export const liveEvent = named(
  "LiveEvent",
  z.discriminatedUnion("event", [
    frame("ready", described(z.object({ seq }),"Listening; nothing happened since the event number the client gave.")),
    frame(
      "sync",
      described(z.object({ seq }), "Something may have been missed (a first connection without a cursor, a gap while away): read the session again."),
    ),
    frame("messages", z.object({ seq, from_seq: described(count(), "The lowest message seq added or changed: read the messages from there.") })),
    frame("session", described(z.object({ seq }),"The session itself changed: title, model, settings, system prompt, project, pinned or archived.")),
    frame("compactions", described(z.object({ seq }),"A compaction was applied, undone or failed.")),
    frame("checkpoints", described(z.object({ seq }),"A checkpoint was saved.")),
    frame("canvas", described(z.object({ seq }),"The canvas changed.")),
    frame(
      "delta",
      described(
        z.object({ message_id: z.string().uuid(), offset: count(), text: z.string() }),
        "Text a streaming reply grew by, at `offset` in its text (UTF-16 code units); no `id`, as it is not stored until the reply is."),
    ),
  ]),
  "A session's live events, as `{ event, data }` pairs.",
);
export type LiveEvent = z.infer<typeof liveEvent>;

export const liveQuery = z
  .object({
    after: described(z.coerce.number().int().min(0), "The event number the client's view is from (the `event_seq` of a page of messages); `Last-Event-ID` wins when a reconnecting client sends it.").optional(),
  })
  .strict();
