import { json, route } from "@/lib/api/http";
import { SESSION_HEADER } from "@/lib/contract/anthropic";
import { api } from "@/lib/contract/endpoints";
import { countDropIn } from "@/lib/turn/count-tokens";

export const dynamic = "force-dynamic";

export const POST = route(api.anthropicCountTokens, async ({ req, body, caller }) =>
  json({ input_tokens: await countDropIn(caller.userId, { session: req.headers.get(SESSION_HEADER), betas: req.headers.get("anthropic-beta") }, body) }),
);
