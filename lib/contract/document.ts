import { z } from "zod";
import { named } from "./meta";

/** Just enough to recognise the document itself; its full grammar is the OpenAPI 3.1 specification's. */
export const openApiDocumentShape = named(
  "OpenApiDocument",
  z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  }),
);
