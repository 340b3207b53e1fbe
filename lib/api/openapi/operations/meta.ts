import type { OperationGroup } from "../registry";
import { openApiDocumentShape } from "@/lib/contract/document";

export const meta: OperationGroup = {
  tag: "API",
  description: "This document.",
  operations: [
    {
      method: "GET",
      path: "/api/openapi.json",
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI 3.1 document",
      description: "Generated from the zod schemas the routes validate with. Rendered at /docs.",
      responses: { 200: { description: "The document.", json: openApiDocumentShape } },
    },
  ],
};
