// The offline responder answers when ANTHROPIC_API_KEY is not set, so every context
// feature (token bar, compaction, checkpoints, resume) can be tried without a key. It is
// deterministic so tests and demos give the same output every time.
import "server-only";
import { toolResultText, typedText } from "@/lib/context/text";
import type { ApiMessage, ContentBlock } from "@/lib/context/types";
import { getModel, type TokenizerFamily } from "@/lib/models";

export const OFFLINE_BANNER = "[Offline responder — set ANTHROPIC_API_KEY to talk to Claude]";
const ECHO_CHARS = 300;
const TOOL_RESULT_CHARS = 1_500;

// Stands in for the API's input_tokens. A rough characters-per-token rule (newer Claude
// tokenizers count ~30% more) rather than our tiktoken estimate: feeding our own estimate
// back as the "measurement" would pin calibration at exactly 1 and hide that code path.
const CHARS_PER_TOKEN: Record<TokenizerFamily, number> = { "claude-legacy": 3.5, "claude-2026": 2.7 };
const PER_MESSAGE_TOKENS = 4;
const IMAGE_TOKENS = 1_600;

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "tool_use":
      return block.name.length + (JSON.stringify(block.input) ?? "").length;
    case "tool_result":
      return toolResultText(block).length;
    default:
      return 0;
  }
}

function simulatedInputTokens(messages: readonly ApiMessage[], system: string | undefined, model: string): number {
  const charsPerToken = CHARS_PER_TOKEN[getModel(model)?.tokenizer ?? "claude-legacy"];
  let chars = system?.length ?? 0;
  let fixed = 0;
  for (const m of messages) {
    fixed += PER_MESSAGE_TOKENS;
    for (const b of m.content) {
      chars += blockChars(b);
      if (b.type === "image") fixed += IMAGE_TOKENS;
    }
  }
  return Math.ceil(chars / charsPerToken) + fixed;
}

function isTurnStart(m: ApiMessage): boolean {
  return m.role === "user" && !m.content.some((b) => b.type === "tool_result");
}

function describeLastUser(messages: readonly ApiMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return "There is no user message to answer yet.";
  const text = typedText(last.content).trim();
  if (text !== "") {
    const echo = text.length > ECHO_CHARS ? `${text.slice(0, ECHO_CHARS)}…` : text;
    return `You said: "${echo}"`;
  }
  const results = last.content.flatMap((b) => (b.type === "tool_result" ? [b] : []));
  const images = last.content.filter((b) => b.type === "image").length;
  if (results.length > 0 && images === 0) {
    const body = results.map(toolResultText).join("\n\n");
    const shown = body.length > TOOL_RESULT_CHARS ? `${body.slice(0, TOOL_RESULT_CHARS)}…` : body;
    return `The tool answered:\n\n${shown}`;
  }
  return `You sent ${results.length} tool result(s) and ${images} image(s) without text.`;
}

export function offlineReply(input: { messages: ApiMessage[]; system?: string; model: string }): {
  text: string;
  inputTokens: number;
} {
  const { messages, system, model } = input;
  const turns = messages.filter(isTurnStart).length;
  const inputTokens = simulatedInputTokens(messages, system, model);
  const text = [
    OFFLINE_BANNER,
    "",
    describeLastUser(messages),
    "",
    `This is turn ${turns} in Claude's view (${messages.length} message(s), about ${inputTokens.toLocaleString("en-US")} input tokens for ${model}).`,
    "Everything around the model works offline: the token bar, the context window and protected messages.",
  ].join("\n");
  return { text, inputTokens };
}

/** Yields the text word by word (each word with its trailing whitespace), so chunks join back to the exact text. */
export async function* streamOffline(text: string, delayMs = 15): AsyncGenerator<string> {
  const chunks = text.match(/\s+|\S+\s*/g) ?? [];
  for (const chunk of chunks) {
    if (delayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, delayMs));
    yield chunk;
  }
}
