// What one operation of the REST API is, for the document. Route groups list their
// operations (operations/*.ts); the builder turns the list into OpenAPI. Adding a route is
// adding one entry that points at the zod schemas its handler parses with.
import type { z } from "zod";
import type { ErrorCase } from "./errors";

/** The methods a route.ts may export, as it exports them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** API key scopes: read for GET routes, write for what changes data, admin for keys and settings. */
export type Scope = "read" | "write" | "admin";

export interface SuccessResponse {
  description: string;
  /** The JSON body; leave out for a bodiless answer (204). */
  json?: z.ZodType;
  /** A Server-Sent Events stream; each frame matches this schema as `{ event, data }`. */
  events?: z.ZodType;
  /** Also answers text/csv (when asked): what its columns are. */
  csv?: string;
}

export interface HeaderParameter {
  name: string;
  description: string;
  schema: z.ZodType;
}

export interface Operation {
  method: Method;
  /** The route's folder under app/, with `[name]` written `{name}`: `/api/session/{id}/messages`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Defaults to read for GET and write otherwise. */
  scope?: Scope;
  /** The schemas the handler parses with: parseParams, parseQuery, parseBody. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  headers?: HeaderParameter[];
  responses: Record<number, SuccessResponse>;
  /** Errors beyond those every route answers and those its params, query and body imply. */
  errors?: ErrorCase[];
}

export interface OperationGroup {
  tag: string;
  description: string;
  operations: Operation[];
}
