// Drafts, custom instructions, a session's system prompt and the Anthropic key.
import type { AnthropicKeyStatusJson, DraftJson, InstructionsJson, SystemPromptJson } from "@/lib/contract";
import { json, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

export async function getDraft(sessionId: string): Promise<DraftJson> {
  return (await json<{ draft: DraftJson }>(`/api/session/${enc(sessionId)}/draft`)).draft;
}

/** `keepalive`: a save sent as the page goes away still arrives. */
export async function putDraft(sessionId: string, draft: Pick<DraftJson, "text" | "attachments">, keepalive = false): Promise<DraftJson> {
  return (await json<{ draft: DraftJson }>(`/api/session/${enc(sessionId)}/draft`, { ...withBody("PUT", draft), keepalive })).draft;
}

export function getInstructions(): Promise<InstructionsJson> {
  return json("/api/account/instructions");
}

export function putInstructions(instructions: string): Promise<InstructionsJson> {
  return json("/api/account/instructions", withBody("PUT", { instructions }));
}

export function getSystemPrompt(sessionId: string): Promise<SystemPromptJson> {
  return json(`/api/session/${enc(sessionId)}/system-prompt`);
}

export function putSystemPrompt(sessionId: string, change: { system_prompt?: string; instructions?: string }): Promise<SystemPromptJson> {
  return json(`/api/session/${enc(sessionId)}/system-prompt`, withBody("PUT", change));
}

export function getAnthropicKey(): Promise<AnthropicKeyStatusJson> {
  return json("/api/account/anthropic-key");
}

export function putAnthropicKey(key: string): Promise<AnthropicKeyStatusJson> {
  return json("/api/account/anthropic-key", withBody("PUT", { key }));
}

export function deleteAnthropicKey(): Promise<AnthropicKeyStatusJson> {
  return json("/api/account/anthropic-key", { method: "DELETE" });
}
