// The session an API request (the drop-in, the OpenAI-compatible endpoint) continues, found
// without reading any conversation: its clients rarely send threadkeeper-session-id back. In
// order: that header; a tool result answering a call Threadkeeper just returned to the caller;
// a history whose digest is the one the caller last saw of a session (lib/context/client-history.ts);
// a well-known conversation header of the client; else a new session. Two candidates are an
// ambiguity and start a new session rather than guess. Every lookup is within the caller's own
// sessions, so no header or replayed history reaches another user's.
import "server-only";
import { API_TOOLS, type ApiTool, type ContextSettings } from "@/lib/contract";
import type { AnthropicCreateRequest } from "@/lib/contract/anthropic";
import { EMPTY_VIEW, extendDigest } from "@/lib/context/client-history";
import type { ContentBlock } from "@/lib/context/types";
import { withUser } from "@/lib/db";
import { conversationSession, linkConversation, lockConversation, sessionsByToolCall, sessionsByView } from "@/lib/db/found-sessions";
import { getSession } from "@/lib/db/sessions";
import { badRequest, notFound } from "@/lib/errors";
import { createSession, createSessionIn, putSettings, useSystemPrompt } from "@/lib/operations/sessions";

/** What a drop-in reads of the request beside its body (lib/api/drop-in-headers.ts reads it). */
export interface DropInHeaders {
  /** `threadkeeper-session-id`: the session it continues. */
  session: string | null;
  /** `anthropic-beta`. */
  betas: string | null;
  /** A conversation id a well-known client sends (Claude Code's `X-Claude-Code-Session-Id`, …), with the header it came in. */
  conversation: string | null;
  /** `threadkeeper-tools`: which of Threadkeeper's own tools this request offers; null leaves it to the key or the session. */
  tools: string | null;
  /** The tools the request's API key chose (null: none chosen, or no key). */
  keyTools: readonly ApiTool[] | null;
}

/** How a request's session was found (the `threadkeeper-session-found` header). */
export type FoundBy = "header" | "tool_result" | "history" | "conversation" | "new";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed session id names nothing: a 404 like an unknown one. */
export const isSessionId = (id: string) => UUID.test(id);

export function systemText(system: AnthropicCreateRequest["system"]): string | undefined {
  if (system === undefined) return undefined;
  return typeof system === "string" ? system : system.map((b) => b.text).join("\n\n");
}

type ToolSettings = Pick<ContextSettings, "recall_tool" | "canvas_tools">;

/** What a session an API request creates offers Claude of Threadkeeper's own tools, unless the caller chose. */
export const API_DEFAULT_TOOLS: ToolSettings = { recall_tool: true, canvas_tools: false };

const asSettings = (tools: readonly ApiTool[]): ToolSettings => ({ recall_tool: tools.includes("recall"), canvas_tools: tools.includes("canvas") });

/** The caller's choice of Threadkeeper's own tools: the `threadkeeper-tools` header, else the key's; null when neither chose. */
export function chosenTools(header: string | null, keyTools: readonly ApiTool[] | null): ToolSettings | null {
  if (header === null) return keyTools === null ? null : asSettings(keyTools);
  const names = header.toLowerCase().split(",").map((t) => t.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === "none") return asSettings([]);
  const unknown = names.find((n) => !(API_TOOLS as readonly string[]).includes(n));
  if (unknown !== undefined || names.length === 0) {
    throw badRequest(`threadkeeper-tools: ${unknown === undefined ? "empty" : `unknown tool '${unknown}'`}; name ${API_TOOLS.join(", ")} (comma-separated) or none`);
  }
  return asSettings(names as ApiTool[]);
}

/** The one candidate, or null for none or an ambiguity. */
const single = (ids: readonly string[]) => (ids.length === 1 ? ids[0] : null);

/** The ids of the tool calls a request's last message answers. */
export function answeredCalls(content: readonly ContentBlock[]): string[] {
  return content.flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []));
}

export interface ApiRequestFacts {
  model: string;
  system: AnthropicCreateRequest["system"];
  /** The canonical keys of the request's messages (the last is the one to answer). */
  keys: readonly string[];
  /** The tool calls its last message answers. */
  answers: readonly string[];
}

/** An existing session named or recognised, or null. */
async function recognised(userId: string, headers: DropInHeaders, facts: ApiRequestFacts): Promise<{ id: string; foundBy: FoundBy } | null> {
  if (headers.session !== null) {
    // Read with the rest below: unknown or another user's is a 404 there.
    if (!isSessionId(headers.session)) throw notFound("Session", headers.session);
    return { id: headers.session, foundBy: "header" };
  }
  const history = facts.keys.slice(0, -1);
  const found = await withUser(userId, async (tx) => {
    if (facts.answers.length > 0) {
      const id = single(await sessionsByToolCall(tx, userId, facts.answers));
      if (id) return { id, foundBy: "tool_result" as const };
    }
    if (history.length > 0) {
      const id = single(await sessionsByView(tx, userId, extendDigest(EMPTY_VIEW, history)));
      if (id) return { id, foundBy: "history" as const };
    }
    return null;
  });
  return found;
}

/**
 * The session a request continues or a new one, with the request's model, system prompt and
 * tool choice applied to it. A new session offers recall but not the canvas unless chosen.
 */
export async function apiSession(userId: string, headers: DropInHeaders, facts: ApiRequestFacts): Promise<{ sessionId: string; foundBy: FoundBy }> {
  const tools = chosenTools(headers.tools, headers.keyTools);
  const system = systemText(facts.system);
  const create = { model: facts.model, settings: tools ?? API_DEFAULT_TOOLS };
  let found = await recognised(userId, headers, facts);
  if (!found && headers.conversation !== null) {
    const conversation = headers.conversation;
    // A lone message under a known conversation id is a side request of the client (a title,
    // a topic check): it must not replace the conversation's turns, so it gets a session of its own.
    const alone = facts.keys.length === 1;
    const mapped = await withUser(userId, async (tx) => {
      await lockConversation(tx, userId, conversation);
      const id = await conversationSession(tx, userId, conversation);
      if (id && alone) return { id: (await createSessionIn(tx, userId, create, system ?? "")).id, foundBy: "new" as const };
      if (id) return { id, foundBy: "conversation" as const };
      const created = await createSessionIn(tx, userId, create, system ?? "");
      await linkConversation(tx, userId, conversation, created.id);
      return { id: created.id, foundBy: "new" as const };
    });
    if (mapped.foundBy === "new") return { sessionId: mapped.id, foundBy: "new" };
    found = mapped;
  }
  if (!found) return { sessionId: (await createSession(userId, create, system ?? "")).id, foundBy: "new" };
  const session = await withUser(userId, (tx) => getSession(tx, userId, found.id));
  const settingsChange = {
    ...(session.model !== facts.model ? { model: facts.model } : {}),
    ...(tools && (session.settings.recall_tool !== tools.recall_tool || session.settings.canvas_tools !== tools.canvas_tools) ? tools : {}),
  };
  if (Object.keys(settingsChange).length > 0) await putSettings(userId, session.id, settingsChange);
  if (system !== undefined && system !== session.system_prompt) await useSystemPrompt(userId, session.id, system);
  return { sessionId: session.id, foundBy: found.foundBy };
}
