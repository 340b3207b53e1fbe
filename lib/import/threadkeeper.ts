// A session of Threadkeeper's own export (lib/contract/exchange.ts) as an imported
// conversation: every message of every version, as it was numbered, with its times and models.
import { sessionExport } from "@/lib/contract/exchange";
import { ConversationError, isObject, type ImportedConversation } from "./types";

export const isThreadkeeperExport = (v: unknown): boolean => isObject(v) && v.format === "threadkeeper-export";

export function threadkeeperSession(raw: unknown): ImportedConversation {
  const parsed = sessionExport.safeParse(raw);
  const id = isObject(raw) && isObject(raw.session) && typeof raw.session.id === "string" ? raw.session.id : "(no id)";
  if (!parsed.success) throw new ConversationError(id, `not a valid Threadkeeper export: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim());
  const doc = parsed.data;
  return {
    format: "threadkeeper",
    sourceId: doc.session.id,
    title: doc.session.title,
    model: doc.session.model,
    createdAt: doc.session.created_at,
    updatedAt: doc.session.last_message_at ?? doc.session.updated_at,
    systemPrompt: doc.system_prompt,
    messages: doc.messages
      .filter((m) => m.status !== "streaming")
      .map((m) => ({
        role: m.role,
        content: m.content,
        saidAt: m.created_at,
        model: null,
        sourceId: m.id,
        ...(m.supersedes_turn !== null ? { supersedesTurn: m.supersedes_turn } : {}),
        ...(m.restarts_turn ? { restartsTurn: true } : {}),
      })),
    compactions: [],
  };
}
