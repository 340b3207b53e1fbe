import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { openApiDocument } from "@/lib/api/openapi/document";

export const dynamic = "force-dynamic";

export const GET = route(api.getOpenApiDocument, async () => json(openApiDocument()));
