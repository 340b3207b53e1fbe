/** A subset of the real API's request validation, with its wording where it matters. */
import { invalid } from "./errors";
import { outputSchema } from "./structured";
import { resolveThinking, type ThinkingSetup } from "./thinking";

export interface InputMessage {
  role: "user" | "assistant" | "system";
  content: unknown;
}

export interface ValidatedRequest {
  model: string;
  stream: boolean;
  system: unknown;
  messages: InputMessage[];
  tools: unknown[];
  /** Null for count_tokens. */
  maxTokens: number | null;
  thinking: ThinkingSetup;
  /** JSON schema the reply must satisfy (output_config.format / output_format), or null. */
  schema: Record<string, unknown> | null;
}

/** The members of the SDK's ContentBlockParam union (messages.d.ts); anything else is refused. */
export const CONTENT_BLOCK_TYPES = [
  "text",
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "container_upload",
] as const;
const KNOWN_TYPES: ReadonlySet<string> = new Set(CONTENT_BLOCK_TYPES);
const EXPECTED_TAGS = CONTENT_BLOCK_TYPES.map((t) => `'${t}'`).join(", ");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkBlocks(content: unknown[], i: number, role: InputMessage["role"]): void {
  for (const [j, block] of content.entries()) {
    const path = `messages.${i}.content.${j}`;
    if (!isRecord(block)) throw invalid(`${path}: Input should be a valid dictionary or object to extract fields from`);
    if (typeof block.type !== "string" || !KNOWN_TYPES.has(block.type)) {
      throw invalid(`${path}: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags: ${EXPECTED_TAGS}`);
    }
    if (role === "system" && block.type !== "text") throw invalid(`${path}.type: Input should be 'text'`);
    if (block.type === "text" && block.text === "") throw invalid("messages: text content blocks must be non-empty");
  }
}

export function validateRequest(body: Record<string, unknown> | null, opts: { requireMaxTokens: boolean }): ValidatedRequest {
  if (body === null) throw invalid("Request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "") throw invalid("model: Field required");
  let maxTokens: number | null = null;
  if (opts.requireMaxTokens) {
    if (body.max_tokens === undefined) throw invalid("max_tokens: Field required");
    if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens)) {
      throw invalid("max_tokens: Input should be a valid integer");
    }
    if (body.max_tokens < 1) throw invalid("max_tokens: Input should be greater than or equal to 1");
    maxTokens = body.max_tokens;
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    throw invalid("stream: Input should be a valid boolean");
  }
  const rawMessages = body.messages;
  if (!Array.isArray(rawMessages)) throw invalid("messages: Field required");
  if (rawMessages.length === 0) throw invalid("messages: at least one message is required");

  const messages = rawMessages.map((raw: unknown, i): InputMessage => {
    if (!isRecord(raw)) throw invalid(`messages.${i}: Input should be a valid dictionary`);
    // Mid-conversation system messages are accepted as the newer models accept them.
    if (raw.role !== "user" && raw.role !== "assistant" && raw.role !== "system") {
      throw invalid(`messages.${i}.role: Input should be 'user', 'assistant' or 'system'`);
    }
    if (typeof raw.content !== "string" && !Array.isArray(raw.content)) {
      throw invalid(`messages.${i}.content: Input should be a valid list`);
    }
    if (Array.isArray(raw.content)) checkBlocks(raw.content, i, raw.role);
    // The real API rejects empty turns (a classic symptom of persisting a failed, empty reply);
    // only the final assistant message (a prefill) may be empty.
    const isFinalAssistant = i === rawMessages.length - 1 && raw.role === "assistant";
    if (raw.content.length === 0 && !isFinalAssistant) {
      throw invalid(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    return { role: raw.role, content: raw.content };
  });
  if (messages[0].role !== "user") throw invalid('messages: first message must use the "user" role');

  if (body.tools !== undefined && !Array.isArray(body.tools)) throw invalid("tools: Input should be a valid list");
  return {
    model: body.model,
    stream: body.stream === true,
    system: body.system,
    messages,
    tools: Array.isArray(body.tools) ? body.tools : [],
    maxTokens,
    thinking: resolveThinking(body.thinking, body.model, maxTokens),
    schema: outputSchema(body),
  };
}
