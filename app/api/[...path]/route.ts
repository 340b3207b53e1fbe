import { route } from "@/lib/api/http";
import { unknownRoute } from "@/lib/contract/endpoints";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const unknown = route(unknownRoute, async ({ req }) => {
  throw new AppError(404, "not_found", `No API route ${req.method} ${new URL(req.url).pathname}`);
});

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
