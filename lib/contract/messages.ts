import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

const textBlock = z.object({ type: z.literal("text"), text: z.string() });

export const contentBlock = named(
  "ContentBlock",
  z.discriminatedUnion("type", [
    textBlock,
    z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() }),
    z.object({
      type: z.literal("tool_result"),
      tool_use_id: z.string(),
      content: z.union([z.string(), z.array(textBlock)]),
      is_error: z.boolean().optional(),
    }),
    z.object({
      type: z.literal("image"),
      source: z.discriminatedUnion("type", [
        z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
        z.object({ type: z.literal("url"), url: z.string() }),
      ]),
    }),
  ]),
  "An Anthropic Messages API content block, as stored.",
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
  z.object({ messages: z.array(message), has_more: z.boolean(), window: windowShape }),
  "A page of the history in ascending order.",
);

export type ContentBlock = z.infer<typeof contentBlock>;
export type TextBlock = Extract<ContentBlock, { type: "text" }>;
export type ToolUseBlock = Extract<ContentBlock, { type: "tool_use" }>;
export type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;
export type ImageBlock = Extract<ContentBlock, { type: "image" }>;
export type Role = z.infer<typeof role>;
export type MessageJson = z.infer<typeof message>;
export type MessageStatus = MessageJson["status"];
export type WindowJson = z.infer<typeof windowShape>;
export type MessagesPageJson = z.infer<typeof messagesPage>;
