import { json, route } from "@/lib/api/http";
import { dropInHeaders } from "@/lib/api/drop-in-headers";
import { api } from "@/lib/contract/endpoints";
import { countDropIn } from "@/lib/turn/count-tokens";

export const dynamic = "force-dynamic";

export const POST = route(api.anthropicCountTokens, async ({ req, body, caller }) =>
  json({ input_tokens: await countDropIn(caller.userId, dropInHeaders(req, caller), body) }),
);
