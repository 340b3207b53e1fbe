import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

/** Where in a file a hit was found. */
const historyHitFile = z.object({
  id: uuidString(),
  name: z.string(),
  page: described(z.int().positive(), "The page of a PDF, or the part of a text file (200 lines each), that matched."),
});

export const historyHit = named(
  "HistoryHit",
  z.object({
    session_id: described(
      uuidString(),
      "The session the message is in; with session_id, that session (a fork finds what it inherited). For a file hit, the session whose message carries the file.",
    ),
    session_title: z.string().nullable(),
    message_id: uuidString(),
    seq: count(),
    turn_seq: count().nullable(),
    role: z.enum(["user", "assistant"]),
    snippet: described(z.string(), "The matched excerpt (at most ~300 characters), secrets redacted."),
    text: described(z.string(), "The message's text, secrets redacted, cut to about 2,000 characters around the match."),
    score: described(z.number(), "Fused keyword and similarity rank in (0, 1]; halved for a version an edit or a regenerated reply replaced."),
    created_at: timestamp(),
    file: described(
      historyHitFile.optional(),
      "Present when the words were found inside a file attached to the conversation: the file and the page that matched. message_id, seq, turn_seq, role and created_at are then the message that carries the file (open it there); snippet and text are from the page.",
    ),
    in_thinking: described(
      z.literal(true).optional(),
      "Present when the reply was found only by words in Claude's thinking (with include_thinking); the snippet is from the thinking.",
    ),
  }),
  "A message, or a page of a file a message carries, found by history search.",
);

export type HistoryHitJson = z.infer<typeof historyHit>;
