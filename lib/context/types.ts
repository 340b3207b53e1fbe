// Anthropic content blocks as we store them (jsonb) and send them. Kept minimal and
// SDK-independent so the engine stays pure; the shapes match the Messages API.
export type TextBlock = { type: "text"; text: string };
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: string | TextBlock[];
  is_error?: boolean;
};
export type ImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
};
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ImageBlock;

export type Role = "user" | "assistant";
export type MessageStatus = "streaming" | "complete" | "interrupted";

/** A stored message as the engine sees it. */
export interface EngineMessage {
  seq: number;
  turnSeq: number;
  role: Role;
  content: ContentBlock[];
  tokenCount: number;
  protected: boolean;
  status: MessageStatus;
  /** A user message that edits (and replaces) this earlier turn. */
  supersedesTurn?: number | null;
  /** A regenerated reply: the turn's replies before it are replaced. */
  restartsTurn?: boolean;
  /** When it was stored (ISO): the date its "yesterday" and "last week" are relative to. */
  createdAt?: string;
}

/** A message as sent to the Messages API. */
export interface ApiMessage {
  role: Role;
  content: ContentBlock[];
}
