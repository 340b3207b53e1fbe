import { route } from "@/lib/api/http";
import { createMessage } from "@/lib/api/anthropic/messages";
import { dropInHeaders } from "@/lib/api/drop-in-headers";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const POST = route(api.anthropicCreateMessage, async ({ req, body, caller }) =>
  createMessage(caller.userId, dropInHeaders(req, caller), body),
);
