import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { idParams, maxMessageBytes, messagesPageQuery, sendSchema } from "../requests";
import { messagesPage } from "../messages";
import { sendEvent, sendResult } from "../send";
import { liveEvent, liveQuery } from "../live";

export const messages = group("Messages", "Send a message and read the history.", {
  sendMessage: {
    method: "POST",
    path: "/api/session/{id}/messages",
    summary: "Send a message; Claude answers",
    description: [
      "Send exactly one of `content`, `retry: true` (answer the cut-off last message again) or `regenerate: true` (replace the last reply; the old one stays as an earlier version; with `reply_id`, any reply of the current version). `edit_of` with `content` edits any of your messages of the current version. An edit or a regeneration of an earlier turn starts a new version from that point: the turns after it stay in the old version (the messages' `supersedes_turn` links them), and Claude is sent the new one from then on.",
      "",
      "The answer streams as Server-Sent Events (200, `text/event-stream`) unless the request sends `Accept: application/json`: then it is one JSON object (201) once the reply is saved, without waiting for an automatic compaction.",
      "",
      "In the stream, a failing Claude call is an `error` event, not an HTTP status; in JSON mode it is a 502 (413 for `context_overflow`). Your message is saved either way.",
    ].join("\n"),
    params: idParams,
    body: sendSchema,
    // The envelope may add JSON escaping on top of the message's own size limit.
    bodyLimit: () => maxMessageBytes() * 2 + 4096,
    send: true,
    headers: [
      {
        name: "Idempotency-Key",
        description: "Makes a retried send safe: a repeat answers with the first one's result. Same as `idempotency_key` in the body (the body wins).",
        schema: sendSchema.shape.idempotency_key,
      },
    ],
    responses: {
      200: { description: "The turn as Server-Sent Events (the default).", events: sendEvent },
      201: { description: "With `Accept: application/json`: the saved messages and the new status.", json: sendResult },
    },
    errors: [
      E.sessionBusy,
      E.nothingToRetry,
      E.nothingToRegenerate,
      E.budgetExhausted,
      E.notFound,
      E.notCurrentVersion,
      E.editSummarized,
      E.requestInProgress,
      E.messageTooLarge,
      E.contextOverflow,
      E.upstreamFailed,
    ],
  },
  listMessages: {
    method: "GET",
    path: "/api/session/{id}/messages",
    summary: "A page of the history",
    description: "Ascending; `before_seq` pages back. Each message says whether it is in Claude's window; `window` says where the window starts. Every attempt is kept: a failed attempt a retry answered again stays with `status: \"interrupted\"` (the app hides it; Claude is not sent it); a regenerated or edited turn keeps its earlier versions.",
    params: idParams,
    query: messagesPageQuery,
    responses: { 200: { description: "The page.", json: messagesPage } },
  },
  sessionEvents: {
    method: "GET",
    path: "/api/session/{id}/events",
    summary: "Follow a session live",
    description: [
      "One Server-Sent Events stream per open session: every change anyone makes to it (on any instance) within a second, and a reply's text as it streams. An event names what changed and carries the session's event number as its `id`; read the changed part again (the messages from `from_seq`, the session, its compactions, checkpoints or canvas).",
      "",
      "The first event is `ready` when nothing changed since `after` (or `Last-Event-ID`, which a reconnecting EventSource sends), else `sync`: read the session again. So a client that reconnects misses nothing, and as every event says what to read rather than carrying it, applies nothing twice.",
    ].join("\n"),
    params: idParams,
    query: liveQuery,
    headers: [
      {
        name: "Last-Event-ID",
        description: "The `id` of the last event seen (EventSource sends it when it reconnects); wins over `after`.",
        schema: z.string(),
      },
    ],
    responses: { 200: { description: "The session's live events, until the client goes away.", events: liveEvent } },
  },
  stopReply: {
    method: "POST",
    path: "/api/session/{id}/stop",
    summary: "Stop the reply being written",
    description: "Works on whichever server instance writes it, within a second. The send then ends with the reply kept as `interrupted` and no `error` event.",
    params: idParams,
    responses: { 202: { description: "Stopping.", json: z.object({ stopping: z.literal(true) }) } },
    errors: [E.nothingToStop],
  },
});
