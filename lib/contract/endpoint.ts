// What one endpoint of the REST API is, declared once: route() executes the descriptor (scope,
// limits, parsing) and /api/openapi.json is generated from it. A route file only binds a
// handler to its descriptor: `export const GET = route(api.getSession, async ({ params }) => …)`.
import type { z } from "zod";
import type { ErrorCase } from "./error-cases";
import { scopeForMethod, type Scope } from "./integrations";

/** The methods a route.ts may export, as it exports them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

export interface SuccessResponse {
  description: string;
  /** The JSON body; leave out for a bodiless answer (204). */
  json?: z.ZodType;
  /** A Server-Sent Events stream; each frame matches this schema as `{ event, data }`. */
  events?: z.ZodType;
  /** Also answers text/csv (when asked): what its columns are. */
  csv?: string;
  /** Answers text/plain: what the text is. */
  text?: string;
  /** Answers text/markdown: what the document is. */
  markdown?: string;
  /** Answers a file's own bytes (application/octet-stream or the file's strict type): what they are. */
  binary?: string;
}

/** A multipart/form-data upload: one file in `field`, read against `maxBytes` before anything is kept. */
export interface UploadSpec {
  field: string;
  description: string;
  /** Bytes of the whole multipart body (the file plus its envelope). */
  maxBytes: number;
  /** Too large for memory: the handler receives it itself, to disk (lib/api/import-upload.ts), and `upload` is left undefined. */
  streamed?: true;
}

export interface HeaderParameter {
  name: string;
  description: string;
  schema: z.ZodType;
}

/** A body larger than this is a 413 unless the endpoint names its own limit. */
export const DEFAULT_BODY_LIMIT = 16 * 1024;

export interface EndpointSpec {
  method: Method;
  /** The route's folder under app/, with `[name]` written `{name}`: `/api/session/{id}/messages`. */
  path: string;
  summary: string;
  description?: string;
  /** What an API key needs; read for GET, write otherwise. */
  scope?: Scope;
  /**
   * For whoever runs the service, not for its users (lib/api/operator.ts): the operator's token
   * (THREADKEEPER_METRICS_TOKEN) opens it in either mode, and the handler then gets no caller;
   * SaaS mode lets no user in at all; local mode, as ever, anyone on this machine.
   */
  operator?: true;
  /** A send: it also takes from the caller's sends-per-minute bucket and must fit today's token budget. */
  send?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A multipart file upload instead of a JSON body: the handler gets `upload`. */
  upload?: UploadSpec;
  /** Bytes; a function when the limit is configured at run time. */
  bodyLimit?: number | (() => number);
  headers?: HeaderParameter[];
  responses: Record<number, SuccessResponse>;
  /** Errors beyond those every route answers and those its params, query and body imply. */
  errors?: ErrorCase[];
  /**
   * Errors in another API's shape: `anthropic` answers `{ type: "error", error: { type, message } }`,
   * `openai` `{ error: { message, type, param, code } }`; `mcp` answers its authentication
   * failures (401, insufficient_scope) as OAuth does, `{ error, error_description }`
   * (lib/contract/errors.ts bearerError), and the rest as ApiError.
   */
  dialect?: "anthropic" | "openai" | "mcp";
  /**
   * Answers without a caller (the health check): only the Host check runs, no credentials are
   * read, nothing is counted against a limit, and the handler gets no caller, so it cannot
   * answer anyone's data. The document gives it no security requirement.
   */
  public?: true;
}

export type Endpoint = EndpointSpec & { operationId: string };

export interface EndpointGroup<T extends Record<string, EndpointSpec> = Record<string, EndpointSpec>> {
  tag: string;
  description: string;
  endpoints: { [K in keyof T]: T[K] & { operationId: K & string } };
}

/** A tag of the document and its endpoints; each key is the endpoint's operationId. */
export function group<T extends Record<string, EndpointSpec>>(tag: string, description: string, specs: T): EndpointGroup<T> {
  const endpoints = Object.fromEntries(Object.entries(specs).map(([operationId, spec]) => [operationId, { ...spec, operationId }]));
  return { tag, description, endpoints: endpoints as EndpointGroup<T>["endpoints"] };
}

export function scopeOf(e: EndpointSpec): Scope {
  return e.scope ?? scopeForMethod(e.method);
}

export function bodyLimitOf(e: EndpointSpec): number {
  return typeof e.bodyLimit === "function" ? e.bodyLimit() : (e.bodyLimit ?? DEFAULT_BODY_LIMIT);
}

type Parsed<E, K extends "params" | "query" | "body"> = E extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a route's handler receives: the request's inputs parsed by its descriptor's schemas. */
export interface Inputs<E extends EndpointSpec> {
  params: Parsed<E, "params">;
  query: Parsed<E, "query">;
  body: Parsed<E, "body">;
  upload: E extends { upload: { streamed: true } } ? undefined : E extends { upload: UploadSpec } ? UploadedFile : undefined;
}

/** The file of a multipart upload, as the client named and typed it (neither is trusted). */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}
