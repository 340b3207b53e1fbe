import { route } from "@/lib/api/http";
import { createMessage } from "@/lib/api/anthropic/messages";
import { SESSION_HEADER } from "@/lib/contract/anthropic";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const POST = route(api.anthropicCreateMessage, async ({ req, body, caller }) =>
  createMessage(caller.userId, { session: req.headers.get(SESSION_HEADER), betas: req.headers.get("anthropic-beta") }, body),
);
