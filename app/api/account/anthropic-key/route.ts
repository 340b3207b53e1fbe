import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { keyStatus, removeKey, saveKey } from "@/lib/operations/anthropic-key";

export const dynamic = "force-dynamic";

export const GET = route(api.getAnthropicKey, async () => json(keyStatus()));

export const PUT = route(api.putAnthropicKey, async ({ body }) => json(saveKey(body.key)));

export const DELETE = route(api.deleteAnthropicKey, async () => json(removeKey()));
