import { route } from "@/lib/api/http";
import { unknownOpenAIRoute } from "@/lib/contract/endpoints";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// An OpenAI client asking for what is not served here (embeddings, the Responses API, a typo)
// reads the answer in OpenAI's error shape, so its SDK raises NotFoundError with these words.
const unknown = route(unknownOpenAIRoute, async ({ req }) => {
  throw new AppError(
    404,
    "not_found",
    `Threadkeeper's OpenAI-compatible endpoint does not serve ${req.method} ${new URL(req.url).pathname}: it serves POST /v1/chat/completions, GET /v1/models and GET /v1/models/{model}.`,
  );
});

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
