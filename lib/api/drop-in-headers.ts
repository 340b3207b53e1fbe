// What the API surfaces for other clients (the drop-in Messages API, the OpenAI-compatible
// endpoint, count_tokens) read of a request beside its body.
import "server-only";
import type { Caller } from "@/lib/auth";
import { SESSION_HEADER, TOOLS_HEADER } from "@/lib/contract/anthropic";
import type { DropInHeaders } from "@/lib/turn/api-session";

/**
 * Headers in which popular clients name their own conversation: each value maps to one session
 * of the caller. Lower case, as `Headers.get` takes them; the first present wins.
 */
export const CONVERSATION_HEADERS = ["x-claude-code-session-id", "x-openwebui-chat-id"] as const;

export function dropInHeaders(req: Request, caller: Caller): DropInHeaders {
  const found = CONVERSATION_HEADERS.map((h) => [h, req.headers.get(h)?.trim()] as const).find(([, v]) => v);
  return {
    session: req.headers.get(SESSION_HEADER),
    betas: req.headers.get("anthropic-beta"),
    conversation: found ? `${found[0]}:${found[1]}` : null,
    tools: req.headers.get(TOOLS_HEADER),
    keyTools: caller.key?.tools ?? null,
  };
}
