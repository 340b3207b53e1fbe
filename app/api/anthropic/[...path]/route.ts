import { route } from "@/lib/api/http";
import { unknownAnthropicRoute } from "@/lib/contract/endpoints";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// An Anthropic client asking for what the drop-in does not serve (batches, files, a typo) reads
// the answer in Anthropic's error shape, so its SDK raises NotFoundError with these words.
const unknown = route(unknownAnthropicRoute, async ({ req }) => {
  throw new AppError(
    404,
    "not_found",
    `Threadkeeper's drop-in Messages API does not serve ${req.method} ${new URL(req.url).pathname}: it serves POST /v1/messages, POST /v1/messages/count_tokens and GET /v1/models.`,
  );
});

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
