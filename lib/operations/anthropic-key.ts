import "server-only";
// The Anthropic key from Account settings (local mode): saved, forgotten, described. Never
// answered, never logged: what leaves is where the key in use comes from and its last four
// characters. SaaS mode refuses it: the operator's key serves everyone.
import type { AnthropicKeyStatusJson } from "@/lib/contract";
import { AppError } from "@/lib/errors";
import { anthropicKey, forgetKey, storeKey } from "@/lib/llm/stored-key";
import { supabaseAuth } from "@/lib/mode";

export function keyStatus(): AnthropicKeyStatusJson {
  const { key, source } = anthropicKey();
  return { source, last4: key ? key.slice(-4) : null, can_set: supabaseAuth() === null };
}

function localOnly(): void {
  if (supabaseAuth()) throw new AppError(403, "key_managed_by_operator", "This server calls Claude with its operator's key; a key cannot be saved from the app.");
}

export function saveKey(key: string): AnthropicKeyStatusJson {
  localOnly();
  storeKey(key);
  return keyStatus();
}

export function removeKey(): AnthropicKeyStatusJson {
  localOnly();
  forgetKey();
  return keyStatus();
}
