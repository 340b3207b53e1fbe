// The offline responder's use of the recall tool, so recalling can be tried without a key: a
// message that asks about something said before ("/recall Lisbon", "do you remember what I
// said about the apartment?") gets a tool_use, and the results that come back are shown.
import "server-only";
import type { ApiMessage, ToolUseBlock } from "@/lib/context/types";
import { RECALL_TOOL_NAME } from "@/lib/context/recall";
import { typedText } from "@/lib/context/text";
import type { ToolDef } from "@/lib/tokens/tokenizer";

const SLASH = /^\/recall\s+([\s\S]+)$/i;
const ASKS = /\b(do you remember|remember when|remind me what|what did (?:i|we) (?:say|tell you|decide|agree)|recall)\b/i;
/** Filler around the topic of a question about the past; what is left is the search. */
const FILLER =
  /\b(do|did|you|remember|recall|remind|me|what|when|where|who|i|we|said|say|tell|told|decide|decided|agree|agreed|about|the|a|an|that|earlier|before|last|time|week|month|please|can|could)\b/gi;

/** The search a question about the past asks for, or null when it asks none. */
export function recallQuery(text: string): string | null {
  const slash = SLASH.exec(text);
  if (slash) return slash[1].trim() || null;
  if (!ASKS.test(text)) return null;
  const topic = text.replace(FILLER, " ").replace(/[^\p{L}\p{N}\s'-]/gu, " ").replace(/\s+/g, " ").trim();
  return topic || null;
}

/** A tool_use of recall for the last user message, when recall is offered and the message asks for it. */
export function offlineToolUse(messages: readonly ApiMessage[], tools: readonly ToolDef[]): (ToolUseBlock & { input: { query: string } }) | null {
  if (!tools.some((t) => t.name === RECALL_TOOL_NAME)) return null;
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user" || last.content.some((b) => b.type === "tool_result")) return null;
  const query = recallQuery(typedText(last.content).trim());
  if (!query) return null;
  return { type: "tool_use", id: `toolu_offline_${messages.length}`, name: RECALL_TOOL_NAME, input: { query } };
}
