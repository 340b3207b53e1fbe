// One conversation of a ChatGPT export (conversations.json, or a shard conversations-NNN.json):
// its `mapping` tree walked from `current_node` by `parent` links (newer exports drop some
// `children`), other branches kept as versions (tree.ts). Hidden nodes (custom instructions as
// `user_editable_context`, visually hidden system messages) are skipped; tool and code turns are
// kept as readable text of the reply; images, whose bytes the export keeps apart, as a line
// saying so. See ../shared/reference/outside-formats.md §1(b).
import type { ContentBlock, Role } from "@/lib/context/types";
import { linearize, type TreeNode } from "./tree";
import { arr, ConversationError, isObject, isoTime, str, type ImportedConversation, type JsonObject } from "./types";

/** Whether a parsed JSON value looks like one ChatGPT conversation. */
export const isChatGptConversation = (v: unknown): v is JsonObject => isObject(v) && "mapping" in v && ("current_node" in v || "title" in v || "create_time" in v);

const HIDDEN_TYPES = new Set(["user_editable_context", "model_editable_context", "system_error"]);

export function chatGptConversation(raw: JsonObject): ImportedConversation {
  const sourceId = str(raw.conversation_id) ?? str(raw.id);
  if (!sourceId) throw new ConversationError("(no id)", "the conversation has no id");
  if (!isObject(raw.mapping)) throw new ConversationError(sourceId, "the conversation has no message tree (mapping)");
  const defaultModel = str(raw.default_model_slug);
  let models = 0;
  const nodes: TreeNode[] = Object.entries(raw.mapping).map(([key, n], order) => {
    const node = isObject(n) ? n : {};
    const message = messageOf(node.message, defaultModel);
    if (message?.model) models++;
    const t = isObject(node.message) ? node.message.create_time : null;
    return { id: str(node.id) ?? key, parent: str(node.parent), message, order: typeof t === "number" ? t : order / 1e9 };
  });
  const messages = linearize(nodes, str(raw.current_node));
  if (!messages.some((m) => m.role === "user")) throw new ConversationError(sourceId, "the conversation has no message of yours");
  const lastModel = [...messages].reverse().find((m) => m.model)?.model ?? null;
  return {
    format: "chatgpt",
    sourceId,
    title: str(raw.title),
    model: defaultModel ?? (models > 0 ? lastModel : null),
    createdAt: isoTime(raw.create_time),
    updatedAt: isoTime(raw.update_time),
    messages,
    compactions: [],
  };
}

function messageOf(raw: unknown, defaultModel: string | null): TreeNode["message"] {
  if (!isObject(raw)) return null;
  const author = isObject(raw.author) ? raw.author : {};
  const role = str(author.role);
  const content = isObject(raw.content) ? raw.content : {};
  const type = str(content.content_type) ?? "text";
  const meta = isObject(raw.metadata) ? raw.metadata : {};
  if (HIDDEN_TYPES.has(type) || meta.is_visually_hidden_from_conversation === true) return null;
  if (role === "system") return null;
  const blocks = blocksOf(type, content, role, str(raw.recipient));
  if (blocks.length === 0) return null;
  const speaker: Role = role === "user" ? "user" : "assistant";
  return {
    role: speaker,
    content: blocks,
    saidAt: isoTime(raw.create_time),
    model: speaker === "assistant" ? (str(meta.model_slug) ?? defaultModel) : null,
  };
}

const text = (t: string): ContentBlock[] => (t.trim() === "" ? [] : [{ type: "text", text: t }]);
const fenced = (body: string, lang = "") => "```" + lang + "\n" + body.replace(/\n$/, "") + "\n```";

function blocksOf(type: string, content: JsonObject, role: string | null, recipient: string | null): ContentBlock[] {
  const parts = arr(content.parts);
  switch (type) {
    case "text":
      return text(parts.filter((p): p is string => typeof p === "string").join("\n\n"));
    case "multimodal_text":
      return text(
        parts
          .map((p) => (typeof p === "string" ? p : isObject(p) ? partText(p) : ""))
          .filter((p) => p !== "")
          .join("\n\n"),
      );
    case "code": {
      const body = str(content.text) ?? "";
      // A call of a tool (the python tool, browsing) as the reply shows it.
      const lang = recipient === "python" ? "python" : (str(content.language) ?? "");
      return text(body === "" ? "" : `${recipient && recipient !== "all" ? `Called ${recipient}:\n` : ""}${fenced(body, lang === "unknown" ? "" : lang)}`);
    }
    case "execution_output":
      return text(str(content.text) ? `Output:\n${fenced(str(content.text)!)}` : "");
    case "tether_browsing_display":
    case "tether_quote":
      return text([str(content.title), str(content.url), str(content.text) ?? str(content.result)].filter(Boolean).join("\n"));
    case "thoughts": {
      const thoughts = arr(content.thoughts).flatMap((t) => (isObject(t) ? [[str(t.summary), str(t.content)].filter(Boolean).join("\n")] : []));
      const joined = thoughts.filter((t) => t !== "").join("\n\n");
      return joined === "" ? [] : [{ type: "thinking", thinking: joined, signature: "" }];
    }
    case "reasoning_recap":
      return [];
    default:
      // An unknown kind: its text if it has any, never fatal.
      return role === "tool" || role === "assistant" || role === "user" ? text(str(content.text) ?? parts.filter((p): p is string => typeof p === "string").join("\n\n")) : [];
  }
}

function partText(p: JsonObject): string {
  const kind = str(p.content_type);
  if (kind === "image_asset_pointer") {
    const size = typeof p.width === "number" && typeof p.height === "number" ? ` (${p.width}×${p.height})` : "";
    return `[An image${size} was attached; the export keeps its file apart: ${str(p.asset_pointer) ?? "unknown"}]`;
  }
  if (kind === "audio_transcription") return str(p.text) ?? "";
  return str(p.text) ?? "";
}
