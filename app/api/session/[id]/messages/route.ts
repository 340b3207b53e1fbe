import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { sseResponse } from "@/lib/api/sse";
import { messagesPage } from "@/lib/operations/sessions";
import { turnFailureStatus } from "@/lib/turn/errors";
import { prepareSend, sendAndCollect } from "@/lib/turn/send";

export const dynamic = "force-dynamic";

export const GET = route(api.listMessages, async ({ params, query, caller }) =>
  json(await messagesPage(caller.userId, params.id, query.before_seq, query.limit)),
);

export const POST = route(api.sendMessage, async ({ req, params, body, caller }) => {
  const idempotencyKey = body.idempotency_key ?? req.headers.get("idempotency-key") ?? undefined;
  const prepared = await prepareSend(caller.userId, params.id, { ...body, idempotency_key: idempotencyKey });
  if (!(req.headers.get("accept") ?? "").includes("application/json")) return sseResponse(prepared);
  const result = await sendAndCollect(prepared);
  if (result.error) {
    return json({ error: { ...result.error, details: { ...(result.error.details as object), ...result } } }, turnFailureStatus(result.error.code));
  }
  return json(result, 201);
});
