/**
 * The fake's own tokenizer.
 *
 * It deliberately does NOT match tiktoken (cl100k/o200k): the real Claude tokenizer doesn't either,
 * and the app must treat the API's `usage` / `count_tokens` numbers as the source of truth rather
 * than its local estimate. Tests that want exact numbers compute them with the exports below.
 *
 *   fakeTokenCount(text) = ceil(1.15 × #matches of /\w+|[^\w\s]/g)
 *   input tokens         = fakeTokenCount(serialized request) + 3 per message + 10 per tool
 *   output tokens        = fakeTokenCount(serialized reply content)
 */

const TOKEN_RE = /\w+|[^\w\s]/g;

const MESSAGE_OVERHEAD_TOKENS = 3;
const TOOL_OVERHEAD_TOKENS = 10;

/** Fake token count of a piece of text. */
export function fakeTokenCount(text: string): number {
  const pieces = text.match(TOKEN_RE)?.length ?? 0;
  // Integer arithmetic: `pieces * 1.15` in floating point can land just above an integer and
  // make `ceil` overshoot by one.
  return Math.ceil((pieces * 115) / 100);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Text that counts towards tokens for one content block (request or response side).
 * Images and other binary sources contribute nothing: their base64 payload is not text the
 * model reads, and counting it would make totals explode.
 */
function blockText(block: unknown): string {
  if (typeof block === "string") return block;
  if (!isRecord(block)) return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "thinking":
      return typeof block.thinking === "string" ? block.thinking : "";
    case "tool_use":
    case "server_tool_use":
      return `${typeof block.name === "string" ? block.name : ""} ${JSON.stringify(block.input ?? {})}`;
    case "tool_result":
      return contentText(block.content);
    case "document": {
      const source = block.source;
      return isRecord(source) && source.type === "text" && typeof source.data === "string" ? source.data : "";
    }
    default:
      return "";
  }
}

/** Text of a `content` field that is either a string or an array of blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(blockText).join("\n");
  return "";
}

/** Text of a `system` field: a string or an array of text blocks. */
function systemText(system: unknown): string {
  return contentText(system);
}

/** Text a tool definition contributes: name, description and its JSON schema. */
function toolText(tool: unknown): string {
  if (!isRecord(tool)) return "";
  const name = typeof tool.name === "string" ? tool.name : "";
  const description = typeof tool.description === "string" ? tool.description : "";
  const schema = tool.input_schema === undefined ? "" : JSON.stringify(tool.input_schema);
  return [name, description, schema].join("\n");
}

/** The parts of a Messages request that are counted (already validated or not: unknown shapes count as empty). */
export interface CountableRequest {
  system?: unknown;
  messages?: unknown;
  tools?: unknown;
}

/**
 * Input tokens of a request — used for both `usage.input_tokens` of `/v1/messages` and
 * `/v1/messages/count_tokens`, so the two always agree for the same body.
 */
export function countRequestTokens(request: CountableRequest): number {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const parts = [
    systemText(request.system),
    ...messages.map((m) => (isRecord(m) ? contentText(m.content) : "")),
    ...tools.map(toolText),
  ];
  return (
    fakeTokenCount(parts.join("\n")) +
    MESSAGE_OVERHEAD_TOKENS * messages.length +
    TOOL_OVERHEAD_TOKENS * tools.length
  );
}

/** Output tokens of the assistant content the fake sends back. */
export function countOutputTokens(blocks: readonly unknown[]): number {
  return fakeTokenCount(blocks.map(blockText).join("\n"));
}
