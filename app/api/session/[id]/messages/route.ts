import { json, parseBody, parseParams, parseQuery, route } from "@/lib/api/http";
import { idParams as params, messagesPageQuery as pageQuery } from "@/lib/contract/requests";
import { sseResponse } from "@/lib/api/sse";
import { maxMessageBytes, prepareSend, sendAndCollect, sendSchema } from "@/lib/turn/send";
import { messagesPage } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  const q = parseQuery(req, pageQuery);
  return json(await messagesPage(caller.userId, id, q.before_seq, q.limit));
});

export const POST = route<Ctx>(
  async (req, ctx, caller) => {
    const { id } = parseParams(await ctx.params, params);
    // The envelope may add JSON escaping on top of the message's own size limit.
    const body = await parseBody(req, sendSchema, maxMessageBytes() * 2 + 4096);
    const idempotencyKey = body.idempotency_key ?? req.headers.get("idempotency-key") ?? undefined;
    const prepared = await prepareSend(caller.userId, id, { ...body, idempotency_key: idempotencyKey });
    if (!(req.headers.get("accept") ?? "").includes("application/json")) return sseResponse(prepared);
    const result = await sendAndCollect(prepared);
    if (result.error) {
      const status = result.error.code === "context_overflow" ? 413 : 502;
      return json({ error: { ...result.error, details: { ...(result.error.details as object), ...result } } }, status);
    }
    return json(result, 201);
  },
  { send: true },
);
