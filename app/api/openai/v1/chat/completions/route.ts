import { route } from "@/lib/api/http";
import { createCompletion } from "@/lib/api/openai/answer";
import { dropInHeaders } from "@/lib/api/drop-in-headers";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const POST = route(api.openaiChatCompletions, async ({ req, body, caller }) => createCompletion(caller.userId, dropInHeaders(req, caller), body));
