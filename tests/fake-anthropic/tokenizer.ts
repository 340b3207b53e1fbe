/**
 * The fake's own tokenizer.
 *
 * It deliberately does NOT match tiktoken (cl100k/o200k): the real Claude tokenizer doesn't either,
 * and the app must treat the API's `usage` / `count_tokens` numbers as the source of truth rather
 * than its local estimate. Tests that want exact numbers compute them with the exports below.
 *
 *   fakeTokenCount(text) = ceil(1.15 × #matches of /\w+|[^\w\s]/g)
 *   input tokens         = fakeTokenCount(counted text, joined by "\n") + 3 per message (mid-conversation
 *                          system messages included) + 10 per tool + media tokens
 *   output tokens        = fakeTokenCount(reply content, thinking included — also when display
 *                          "omitted" hides it)
 *
 * Counted text: text blocks, tool names and inputs, tool results, thinking text, redacted_thinking
 * `data`, document titles and contexts, plain-text and content documents, web search results
 * coming back (title, url and the page text inside `encrypted_content`).
 * Thinking sent back: models that strip earlier turns' thinking (models.ts: before Claude Opus
 * 4.5, except Opus 4.5 itself) count only the last assistant turn's, and only inside a tool loop
 * (that turn followed by tool results); later models count every thinking block kept.
 * Media tokens:
 *   image, base64          imageTokens(w, h) (images.ts): scaled to long edge ≤ 1568 px and
 *                          ceil(w/28)·ceil(h/28) ≤ 1568, then ceil(w/28)·ceil(h/28)
 *   image, url or file     1568 (the cap: the fake does not fetch it)
 *   PDF, base64            Σ over pages of (fakeTokenCount(page text as unpdf extracts it) + 1568);
 *                          1568 = the standard vision tier's cap: a page is rendered as large as
 *                          the tier keeps (third-party count_tokens readings of a scanned page,
 *                          ≈ 1,600 on 4.5 and 5.5 models; the docs give no page resolution)
 *   PDF, url or file       1568 (one page's allowance)
 */
import { pdfPages, walkBlocks } from "./documents";
import { imageTokens, MAX_IMAGE_TOKENS, readImageInfo } from "./images";
import { modelTraits } from "./models";
import { decryptContent } from "./server-tools";

// A word is at most 16 characters a piece: a real tokenizer splits a long run (a megabyte
// without a space) into many tokens, never one.
const TOKEN_RE = /\w{1,16}|[^\w\s]/g;

const MESSAGE_OVERHEAD_TOKENS = 3;
const TOOL_OVERHEAD_TOKENS = 10;
export const PDF_PAGE_IMAGE_TOKENS = 1568;

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
    case "redacted_thinking":
      return typeof block.data === "string" ? block.data : "";
    case "tool_use":
    case "server_tool_use":
      return `${typeof block.name === "string" ? block.name : ""} ${JSON.stringify(block.input ?? {})}`;
    case "tool_result":
      return contentText(block.content);
    case "document": {
      const source = block.source;
      const parts = [block.title, block.context].filter((p): p is string => typeof p === "string");
      if (isRecord(source) && source.type === "text" && typeof source.data === "string") parts.push(source.data);
      if (isRecord(source) && source.type === "content") parts.push(contentText(source.content));
      return parts.join("\n");
    }
    case "search_result":
      return [block.title, block.source, contentText(block.content)].filter((p) => typeof p === "string").join("\n");
    case "web_search_tool_result":
      return Array.isArray(block.content)
        ? block.content
            .filter(isRecord)
            .map((r) => [r.title, r.url, decryptContent(r.encrypted_content)].filter((p) => typeof p === "string").join("\n"))
            .join("\n")
        : "";
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
  model?: unknown;
  system?: unknown;
  messages?: unknown;
  tools?: unknown;
}

const URL_IMAGE_TOKENS = MAX_IMAGE_TOKENS;

/** Tokens of an image or document beyond its text (see the rules at the top). */
export function mediaTokens(block: unknown): number {
  if (!isRecord(block) || !isRecord(block.source)) return 0;
  const source = block.source;
  if (block.type === "image") {
    if (source.type !== "base64") return URL_IMAGE_TOKENS;
    const info = typeof source.data === "string" ? readImageInfo(Buffer.from(source.data, "base64")) : null;
    return info ? imageTokens(info.width, info.height) : 0;
  }
  if (block.type === "document") {
    if (source.type === "url" || source.type === "file") return PDF_PAGE_IMAGE_TOKENS;
    if (source.type === "base64" && typeof source.data === "string") {
      const pages = pdfPages(source.data) ?? [];
      return pages.reduce((sum, page) => sum + fakeTokenCount(page) + PDF_PAGE_IMAGE_TOKENS, 0);
    }
  }
  return 0;
}

/** Tokens one block adds on its own (its text and media); what the prompt cache sums per prefix. */
export function blockTokens(block: unknown): number {
  return fakeTokenCount(blockText(block)) + mediaTokens(block);
}

const isThinking = (b: unknown): boolean => isRecord(b) && (b.type === "thinking" || b.type === "redacted_thinking");

/**
 * Messages as the model sees them for counting: on models that strip earlier thinking, every
 * thinking block goes except the last assistant turn's inside a tool loop.
 */
export function countedMessages(messages: readonly unknown[], model: unknown): unknown[] {
  if (typeof model !== "string" || modelTraits(model).keepsThinking) return [...messages];
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (isRecord(m) && m.role === "assistant") lastAssistant = i;
  });
  const next = messages[lastAssistant + 1];
  const inToolLoop =
    isRecord(next) && Array.isArray(next.content) && next.content.some((b: unknown) => isRecord(b) && b.type === "tool_result");
  return messages.map((m, i) => {
    if (!isRecord(m) || m.role !== "assistant" || !Array.isArray(m.content) || (i === lastAssistant && inToolLoop)) return m;
    return { ...m, content: m.content.filter((b: unknown) => !isThinking(b)) };
  });
}

/**
 * Input tokens of a request — used for both `usage.input_tokens` of `/v1/messages` and
 * `/v1/messages/count_tokens`, so the two always agree for the same body.
 */
export function countRequestTokens(request: CountableRequest): number {
  const messages = countedMessages(Array.isArray(request.messages) ? request.messages : [], request.model);
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const parts = [
    systemText(request.system),
    ...messages.map((m) => (isRecord(m) ? contentText(m.content) : "")),
    ...tools.map(toolText),
  ];
  let media = 0;
  for (const { block } of walkBlocks(messages.filter(isRecord).map((m) => ({ content: m.content })))) media += mediaTokens(block);
  return (
    fakeTokenCount(parts.join("\n")) +
    MESSAGE_OVERHEAD_TOKENS * messages.length +
    TOOL_OVERHEAD_TOKENS * tools.length +
    media
  );
}

/** Output tokens of the assistant content the fake sends back; `hiddenThinking` is reasoning display "omitted" left out. */
export function countOutputTokens(blocks: readonly unknown[], hiddenThinking = ""): number {
  // Search results are the server's, not the model's output; the query it wrote is.
  const server = new Set(["web_search_tool_result"]);
  const text = blocks.filter((b) => !(isRecord(b) && server.has(String(b.type)))).map(blockText);
  if (hiddenThinking) text.push(hiddenThinking);
  return fakeTokenCount(text.join("\n"));
}
