import { route } from "@/lib/api/http";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// An unknown API path answers like every other route (the error envelope, the security
// headers, the caller checked first) instead of with Next.js's HTML 404 page.
// Any valid API key may learn that a path does not exist: `read` for every method.
const unknown = route(
  async (req) => {
    throw new AppError(404, "not_found", `No API route ${req.method} ${new URL(req.url).pathname}`);
  },
  { scope: "read" },
);

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
