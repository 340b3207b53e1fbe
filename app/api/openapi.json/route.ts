import { json, route } from "@/lib/api/http";
import { openApiDocument } from "@/lib/api/openapi/document";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(openApiDocument()));
