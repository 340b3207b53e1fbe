// Browser-side client for the user's API keys. Failures are ApiErrors like the rest of the client.
import type { ApiKeyJson, ApiTool, Scope, CreatedApiKeyJson } from "@/lib/contract";
import { json, send, withBody } from "@/lib/client/api/http";

export async function listKeys(): Promise<ApiKeyJson[]> {
  return (await json<{ keys: ApiKeyJson[] }>("/api/keys")).keys;
}

export async function createKey(input: { name: string; scopes: Scope[]; expires_at: string | null }): Promise<CreatedApiKeyJson> {
  return json<CreatedApiKeyJson>("/api/keys", withBody("POST", input));
}

export async function revokeKey(id: string): Promise<void> {
  await send(`/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Which of Threadkeeper's own tools the key's requests offer Claude; null: the session's settings. */
export async function setKeyTools(id: string, tools: ApiTool[] | null): Promise<ApiKeyJson> {
  return json<ApiKeyJson>(`/api/keys/${encodeURIComponent(id)}`, withBody("PATCH", { tools }));
}
