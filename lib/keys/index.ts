// Creating, listing and revoking a user's API keys, as that user (withUser). Authenticating a
// request by key is lib/auth/api-keys.ts.
import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import type { ApiKeyJson, CreatedApiKeyJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { insertApiKey, listApiKeys, revokeApiKey, setApiKeyTools, type ApiKeyRow } from "@/lib/db/api-keys";
import { notFound } from "@/lib/errors";
import { generateKey } from "./format";
import { normalizeScopes } from "./scopes";
import { createKeySchema, updateKeySchema } from "@/lib/contract/requests";
import { API_TOOLS, type ApiTool } from "@/lib/contract";

export type CreateKeyInput = z.infer<typeof createKeySchema>;

export function keyJson(row: ApiKeyRow, now = new Date()): ApiKeyJson {
  const expired = row.expires_at !== null && row.expires_at.getTime() <= now.getTime();
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    tools: row.tools,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    status: row.revoked_at ? "revoked" : expired ? "expired" : "active",
  };
}

/** A new key; its secret is in this answer and nowhere else, ever. */
export async function createKey(userId: string, input: CreateKeyInput): Promise<CreatedApiKeyJson> {
  const { secret, hash, prefix } = generateKey();
  const row = await withUser(userId, async (tx) => {
    const created = await insertApiKey(tx, userId, {
      name: input.name,
      prefix,
      hash,
      scopes: normalizeScopes(input.scopes),
      tools: input.tools === undefined || input.tools === null ? null : normalizeTools(input.tools),
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    });
    await audit(tx, userId, {
      action: "key.created",
      target: { type: "api_key", id: created.id },
      metadata: { name: created.name, prefix: created.prefix, scopes: created.scopes },
    });
    return created;
  });
  return { key: keyJson(row), secret };
}

export async function listKeys(userId: string): Promise<ApiKeyJson[]> {
  const rows = await withUser(userId, (tx) => listApiKeys(tx, userId));
  const now = new Date();
  return rows.map((r) => keyJson(r, now));
}

/** Revokes at once: the next request with the key, on any instance, is refused. Revoking twice is fine. */
export async function revokeKey(userId: string, id: string): Promise<void> {
  const row = await withUser(userId, async (tx) => {
    const revoked = await revokeApiKey(tx, userId, id);
    if (revoked) await audit(tx, userId, { action: "key.revoked", target: { type: "api_key", id }, metadata: { name: revoked.name } });
    return revoked;
  });
  if (!row) throw notFound("API key", id);
}

/** The tools in their one order, each once. */
function normalizeTools(tools: readonly ApiTool[]): ApiTool[] {
  return API_TOOLS.filter((t) => tools.includes(t));
}

/** Changes which of Threadkeeper's own tools the key's requests offer Claude; a revoked key may change too (it answers nothing). */
export async function updateKey(userId: string, id: string, input: z.infer<typeof updateKeySchema>): Promise<ApiKeyJson> {
  const tools = input.tools === null ? null : normalizeTools(input.tools);
  const row = await withUser(userId, async (tx) => {
    const updated = await setApiKeyTools(tx, userId, id, tools);
    if (updated) await audit(tx, userId, { action: "key.updated", target: { type: "api_key", id }, metadata: { name: updated.name, tools } });
    return updated;
  });
  if (!row) throw notFound("API key", id);
  return keyJson(row);
}
