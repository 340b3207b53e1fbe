import { group } from "../endpoint";
import { openApiDocumentShape } from "../document";

export const meta = group("API", "This document.", {
  getOpenApiDocument: {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the zod schemas the routes validate with. Rendered at /docs.",
    responses: { 200: { description: "The document.", json: openApiDocumentShape } },
  },
});
