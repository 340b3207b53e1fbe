import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

// The content model: every block of the Messages API, kept whole. A block's own fields are
// checked where Threadkeeper reads them; every other field (citations, a field the API adds
// tomorrow) is kept as it came (looseObject), so a block goes back to Claude as Claude gave it.
// https://docs.claude.com/en/api/messages lists the kinds; the SDK's ContentBlockParam is the
// union the contract follows.

const citations = z.array(z.looseObject({ type: z.string() })).nullish();

const textBlock = z.looseObject({ type: z.literal("text"), text: z.string(), citations });

/**
 * Threadkeeper's own source: the bytes are a stored file (lib/contract/files.ts), read from the
 * file store when the block is sent and sent as the API's base64 (or text) source. Only
 * Threadkeeper writes it; a client cannot send it.
 */
const storedFileSource = z.object({ type: z.literal("threadkeeper_file"), file_id: uuidString(), media_type: z.string() });

/** Threadkeeper's own notes on a block that holds a stored file. */
const fileNote = {
  file_id: uuidString().optional(),
  /** Hex sha256 of the bytes: the same file resent by a client is recognised by it. */
  sha256: z.string().optional(),
  name: z.string().optional(),
};

const mediaSource = z.discriminatedUnion("type", [
  storedFileSource,
  z.looseObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal("url"), url: z.string() }),
  z.looseObject({ type: z.literal("file"), file_id: z.string() }),
]);

const imageBlock = z.looseObject({
  type: z.literal("image"),
  source: mediaSource,
  threadkeeper: described(
    z.object({ width: count(), height: count(), ...fileNote }).optional(),
    "Threadkeeper's own: the image's size, read when it was stored, for its token count, and the stored file it is. Removed before the block is sent to Claude.",
  ),
});

/** What Threadkeeper learned from a document when it was stored: read for counting and search, never sent. */
export const documentFacts = z.object({
  pages: count(),
  /**
   * The document's text (a PDF's extracted text), for search and the transcript a summary reads.
   * A stored file's text is kept with the file (per page, for open_file and search), not here.
   */
  text: z.string().optional(),
  /** Raw token estimate of the whole document as Claude reads it (text and page images). */
  tokens: count(),
  ...fileNote,
});

const documentSource = z.discriminatedUnion("type", [
  storedFileSource,
  z.looseObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal("text"), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal("url"), url: z.string() }),
  z.looseObject({ type: z.literal("file"), file_id: z.string() }),
  z.looseObject({ type: z.literal("content"), content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]) }),
]);

const documentBlock = z.looseObject({
  type: z.literal("document"),
  source: documentSource,
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
  threadkeeper: described(documentFacts.optional(), "Threadkeeper's own: the document's page count, text and token estimate. Removed before the block is sent to Claude."),
});

const searchResultBlock = z.looseObject({
  type: z.literal("search_result"),
  source: z.string(),
  title: z.string(),
  content: z.array(textBlock),
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
});

const thinkingBlock = z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() });

const toolUseBlock = z.looseObject({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });

const toolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.union([textBlock, imageBlock, documentBlock, searchResultBlock]))]).optional(),
  is_error: z.boolean().optional(),
});

/** Claude's call of a tool the API runs itself (web search, web fetch, code execution, tool search). */
const serverToolUseBlock = z.looseObject({ type: z.literal("server_tool_use"), id: z.string(), name: z.string(), input: z.unknown() });

/** The results of server tools: each its own kind, all answering a server_tool_use by id. */
export const SERVER_RESULT_TYPES = [
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
] as const;
const serverResultBlock = z.looseObject({ type: z.enum(SERVER_RESULT_TYPES), tool_use_id: z.string(), content: z.unknown() });

/** The MCP connector's blocks (a server the API calls for Claude, named in `mcp_servers`). */
const mcpToolUseBlock = z.looseObject({ type: z.literal("mcp_tool_use"), id: z.string(), name: z.string(), server_name: z.string(), input: z.unknown() });
const mcpToolResultBlock = z.looseObject({ type: z.literal("mcp_tool_result"), tool_use_id: z.string(), content: z.unknown(), is_error: z.boolean().optional() });

const containerUploadBlock = z.looseObject({ type: z.literal("container_upload"), file_id: z.string() });

/**
 * A mid-conversation system message (`role: "system"` in `messages`, which newer models accept),
 * kept as a block of the message it follows (or, after a reply, the one it precedes) so turns and
 * the window need no role of their own; sent back as its own system message in the same place.
 */
const systemMessageBlock = z.object({
  type: z.literal("system_message"),
  content: z.union([z.string(), z.array(textBlock)]),
});

/**
 * A file attached by reference: Claude is sent one line naming it (lib/context/files.ts) and
 * reads what it needs with the open_file tool, so a large file costs nothing until it is read.
 */
const fileReferenceBlock = z.object({
  type: z.literal("file_reference"),
  file_id: uuidString(),
  name: z.string(),
  media_type: z.string(),
  pages: count().nullish(),
  /** What the whole file would cost if attached. */
  tokens: count(),
});

/** A block of a kind Threadkeeper does not know (yet): kept verbatim and sent back as it came. */
const opaqueBlock = z.object({ type: z.literal("opaque"), block: z.looseObject({ type: z.string() }) });

export const contentBlock = named(
  "ContentBlock",
  z.discriminatedUnion("type", [
    textBlock,
    imageBlock,
    documentBlock,
    searchResultBlock,
    thinkingBlock,
    redactedThinkingBlock,
    toolUseBlock,
    toolResultBlock,
    serverToolUseBlock,
    serverResultBlock,
    mcpToolUseBlock,
    mcpToolResultBlock,
    containerUploadBlock,
    systemMessageBlock,
    fileReferenceBlock,
    opaqueBlock,
  ]),
  "An Anthropic Messages API content block, as stored: every kind the API has, with its fields as Claude or the client gave them. Three kinds are Threadkeeper's own: `system_message` (a mid-conversation system message, in its place), `file_reference` (a file attached by reference: Claude sees one line and reads it with open_file) and `opaque` (a block of a kind Threadkeeper does not know, in `block`, sent back verbatim). An image or document whose `source.type` is `threadkeeper_file` is a stored file (its bytes at `GET /api/files/{file_id}`).",
);

/** Block kinds that are Threadkeeper's own, never the API's. */
export const OWN_BLOCK_TYPES: ReadonlySet<string> = new Set(["system_message", "file_reference", "opaque"]);

/** The kinds of block Threadkeeper knows (the API's, read off the union above); any other arrives as `opaque`. */
export const KNOWN_BLOCK_TYPES: ReadonlySet<string> = new Set(
  contentBlock.options
    .flatMap((o): string[] => ("options" in o.shape.type ? [...o.shape.type.options] : [...o.shape.type.values]))
    .filter((t) => !OWN_BLOCK_TYPES.has(t)),
);
export const role = z.enum(["user", "assistant"]);

export const message = named(
  "Message",
  z.object({
    id: uuidString(),
    session_id: uuidString(),
    seq: count(),
    turn_seq: count(),
    role,
    content: z.array(contentBlock),
    text: z.string(),
    token_count: count(),
    protected: described(z.boolean(), "Its turn never slides out of the window."),
    status: z.enum(["streaming", "complete", "interrupted"]),
    in_window: described(z.boolean(), "False when the message has slid out of Claude's view."),
    supersedes_turn: described(
      count().nullable(),
      "On a user message: the earlier turn it edits and replaces (that turn stays, as an earlier version).",
    ),
    restarts_turn: described(z.boolean(), "On an assistant message: a regenerated reply; the turn's replies before it are earlier versions."),
    created_at: timestamp(),
  }),
);

export const windowShape = named(
  "Window",
  z.object({
    cutoff_turn_seq: described(count(), "Turns with turn_seq >= cutoff_turn_seq are in the window, plus the pinned turns."),
    pinned_turn_seqs: described(z.array(count()), "Turns before the cutoff that stay in the window: the first turn and protected turns."),
  }),
);

export const messagesPage = named(
  "MessagesPage",
  z.object({
    messages: z.array(message),
    has_more: z.boolean(),
    window: windowShape,
    event_seq: described(count(), "The session's live event number, read before the page: `GET /api/session/{id}/events?after=` it hears every change since."),
  }),
  "A page of the history in ascending order.",
);

export type ContentBlock = z.infer<typeof contentBlock>;
export type TextBlock = Extract<ContentBlock, { type: "text" }>;
export type ToolUseBlock = Extract<ContentBlock, { type: "tool_use" }>;
export type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;
export type ImageBlock = Extract<ContentBlock, { type: "image" }>;
export type DocumentBlock = Extract<ContentBlock, { type: "document" }>;
export type ThinkingBlock = Extract<ContentBlock, { type: "thinking" | "redacted_thinking" }>;
export type SystemMessageBlock = Extract<ContentBlock, { type: "system_message" }>;
export type OpaqueBlock = Extract<ContentBlock, { type: "opaque" }>;
export type FileReferenceBlock = Extract<ContentBlock, { type: "file_reference" }>;
export type DocumentFacts = z.infer<typeof documentFacts>;
export type Role = z.infer<typeof role>;
export type MessageJson = z.infer<typeof message>;
export type MessageStatus = MessageJson["status"];
export type WindowJson = z.infer<typeof windowShape>;
export type MessagesPageJson = z.infer<typeof messagesPage>;
