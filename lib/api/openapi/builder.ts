// Endpoint descriptors -> OpenAPI 3.1. Everything a descriptor does not say is derived here the
// same way for every endpoint: parameters from the schemas route() parses with, the errors its
// inputs and the edge imply, the security requirements from its scope.
import "server-only";
import type { z } from "zod";
import { scopeOf, type Endpoint, type EndpointGroup, type SuccessResponse } from "@/lib/contract/endpoint";
import { E, EXACT_CODE_STATUSES, type ErrorCase } from "@/lib/contract/error-cases";
import { SchemaCollector, componentRef } from "./schemas";
import { SECURITY_SCHEMES, securityOf } from "./security";
import { apiError, bearerError } from "@/lib/contract/errors";
import { ANTHROPIC_ERROR_STATUSES, anthropicError } from "@/lib/contract/anthropic";
import { OPENAI_ERROR_STATUSES, openaiError } from "@/lib/contract/openai";
import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject, PathItemObject, ReferenceObject, ResponseObject } from "./types";

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

export function buildDocument(groups: EndpointGroup[], info: DocumentInfo): OpenApiDocument {
  const schemas = new SchemaCollector();
  schemas.convert(apiError, "output");
  const paths: Record<string, PathItemObject> = {};
  const ids = new Set<string>();
  for (const group of groups) {
    for (const op of Object.values(group.endpoints)) {
      if (ids.has(op.operationId)) throw new Error(`operationId ${op.operationId} is used twice`);
      ids.add(op.operationId);
      const item = (paths[op.path] ??= {});
      const method = op.method.toLowerCase() as Lowercase<Endpoint["method"]>;
      if (item[method]) throw new Error(`${op.method} ${op.path} is listed twice`);
      item[method] = operationObject(op, group.tag, schemas);
    }
  }
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/", description: "This server" }],
    tags: groups.map((g) => ({ name: g.tag, description: g.description })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { schemas: schemas.schemas(), responses: SHARED_ERRORS, securitySchemes: SECURITY_SCHEMES },
  };
}

function operationObject(op: Endpoint, tag: string, schemas: SchemaCollector): OperationObject {
  const parameters = [
    ...pathParameters(op, schemas),
    ...(op.query ? objectParameters(op.query, "query", schemas) : []),
    ...(op.headers ?? []).map((h): ParameterObject => ({
      name: h.name,
      in: "header",
      required: false,
      description: h.description,
      schema: schemas.convert(h.schema, "input"),
    })),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [tag],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: requestBody(op.body, schemas) } : {}),
    responses: {
      ...successResponses(op.responses, schemas),
      ...(op.dialect === "anthropic"
        ? anthropicErrors(schemas)
        : op.dialect === "openai"
          ? openaiErrors(schemas)
          : errorResponses(errorCases(op), op.dialect === "mcp" ? schemas.convert(bearerError, "output") : null)),
    },
    security: securityOf(op),
  };
}

function pathParameters(op: Endpoint, schemas: SchemaCollector): ParameterObject[] {
  const named = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const declared = op.params ? Object.keys(op.params.shape) : [];
  if ([...named].sort().join() !== [...declared].sort().join()) {
    throw new Error(`${op.method} ${op.path}: path names {${named.join(", ")}} but params declare ${declared.join(", ") || "none"}`);
  }
  return op.params ? objectParameters(op.params, "path", schemas) : [];
}

function objectParameters(schema: z.ZodObject, where: "path" | "query", schemas: SchemaCollector): ParameterObject[] {
  const json = schemas.convert(schema, "input");
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const s: JsonSchema = typeof property === "boolean" ? {} : property;
    return { name, in: where, required: where === "path" || required.has(name), schema: s };
  });
}

function requestBody(schema: z.ZodType, schemas: SchemaCollector): NonNullable<OperationObject["requestBody"]> {
  // parseBody reads an empty body as {}: the body is optional exactly when {} is valid.
  return { required: !schema.safeParse({}).success, content: { "application/json": { schema: schemas.convert(schema, "input") } } };
}

function successResponses(responses: Record<number, SuccessResponse>, schemas: SchemaCollector): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const [status, r] of Object.entries(responses)) {
    const content: ResponseObject["content"] = {};
    if (r.json) content["application/json"] = { schema: schemas.convert(r.json, "output") };
    if (r.csv) content["text/csv"] = { schema: { type: "string", description: r.csv } };
    if (r.text) content["text/plain"] = { schema: { type: "string", description: r.text } };
    if (r.markdown) content["text/markdown"] = { schema: { type: "string", description: r.markdown } };
    if (r.binary) content["application/octet-stream"] = { schema: { type: "string", format: "binary", description: r.binary } };
    if (r.events) {
      content["text/event-stream"] = {
        schema: {
          type: "array",
          items: schemas.convert(r.events, "output"),
          description: "The stream's frames in order, each `event: <event>` and `data: <data as JSON>` followed by a blank line.",
        },
      };
    }
    out[status] = { description: r.description, ...(Object.keys(content).length ? { content } : {}) };
  }
  return out;
}

/** The Messages API's errors, with its statuses; each body names its type. */
function anthropicErrors(schemas: SchemaCollector): Record<string, ResponseObject> {
  const schema = schemas.convert(anthropicError, "output");
  return Object.fromEntries(
    Object.entries(ANTHROPIC_ERROR_STATUSES).map(([status, type]) => [
      status,
      { description: `\`${type}\`${status === "429" || status === "409" ? " (with `retry-after`)" : ""}`, content: { "application/json": { schema } } },
    ]),
  );
}

/** OpenAI's error shape, with the statuses the endpoint answers; each body names its type and code. */
function openaiErrors(schemas: SchemaCollector): Record<string, ResponseObject> {
  const schema = schemas.convert(openaiError, "output");
  return Object.fromEntries(
    Object.entries(OPENAI_ERROR_STATUSES).map(([status, type]) => [
      status,
      { description: `\`${type}\`${status === "429" || status === "409" || status === "503" ? " (with `retry-after`)" : ""}`, content: { "application/json": { schema } } },
    ]),
  );
}

/** The edge and the caller (every route), what the inputs imply, then the operation's own. */
function errorCases(op: Endpoint): ErrorCase[] {
  // A public endpoint reads no credentials and counts nothing: only the Host rule and its inputs.
  if (op.public) {
    return [E.forbiddenHost, ...(op.params ? [E.notFound] : []), ...(op.query ? [E.invalidRequest] : []), ...(op.errors ?? []), E.internal];
  }
  const cases: ErrorCase[] = [E.unauthenticated, E.invalidToken, E.tokenExpired, E.invalidApiKey, E.forbiddenHost, E.insufficientScope];
  if (op.method !== "GET") cases.push(E.csrfRejected);
  if (scopeOf(op) !== "read") cases.push(E.storageFull);
  if (op.params) cases.push(E.notFound);
  if (op.query || op.body) cases.push(E.invalidRequest);
  if (op.body) cases.push(E.malformedJson, E.payloadTooLarge);
  // Every request is counted against its key's or user's per-minute limit; a key's, first, against
  // its address's failed keys.
  cases.push(...(op.errors ?? []), E.rateLimited, E.tooManyAuthFailures, E.internal, E.authUnavailable, E.shuttingDown);
  return cases;
}

const REASONS: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Too large",
  429: "Too many requests",
  500: "Internal error",
  502: "Claude failed",
  503: "Unavailable",
  507: "Insufficient storage",
};

/** `bearer`: the MCP dialect's body of an authentication failure (lib/api/http.ts), for its 401 and its 403's insufficient_scope. */
function errorResponses(cases: ErrorCase[], bearer: JsonSchema | null = null): Record<string, ResponseObject | ReferenceObject> {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const c of cases) {
    const list = byStatus.get(c.status) ?? [];
    if (!list.some((known) => known.code === c.code)) list.push(c);
    byStatus.set(c.status, list);
  }
  const out: Record<string, ResponseObject | ReferenceObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response = errorResponse(status, list);
    const schema = response.content?.["application/json"]?.schema;
    if (bearer && schema && (status === 401 || status === 403)) {
      const body = status === 401 ? bearer : { anyOf: [bearer, schema] };
      out[String(status)] = { ...response, description: `${response.description}\n\nAs OAuth answers it (RFC 6750): \`{ error, error_description, code }\`${status === 403 ? " for `insufficient_scope`" : ""}.`, content: { "application/json": { schema: body } } };
    } else out[String(status)] = shared(response);
  }
  return out;
}

function errorResponse(status: number, list: ErrorCase[]): ResponseObject {
  const headers = Object.fromEntries(
    list.flatMap((c) => Object.entries(c.headers ?? {})).map(([name, description]) => [
      name,
      { description, schema: { type: name === "Retry-After" ? "integer" : "string" } as JsonSchema },
    ]),
  );
  const exact = EXACT_CODE_STATUSES.has(status);
  return {
    description: [`${REASONS[status] ?? "Error"}${exact ? "" : " (codes include)"}:`, ...list.map((c) => `- \`${c.code}\`: ${c.meaning}`)].join("\n"),
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { "application/json": { schema: exact ? withCodes(list.map((c) => c.code)) : componentRef("ApiError") } },
  };
}

// The error answers most operations share, once in components/responses: an operation
// whose answer for a status is exactly one of these refers to it instead of repeating it.
const SHARED_ERRORS: Record<string, ResponseObject> = {
  InvalidQuery: errorResponse(400, [E.invalidRequest]),
  InvalidBody: errorResponse(400, [E.invalidRequest, E.malformedJson]),
  Unauthorized: errorResponse(401, [E.unauthenticated, E.invalidToken, E.tokenExpired, E.invalidApiKey]),
  Forbidden: errorResponse(403, [E.forbiddenHost, E.insufficientScope]),
  ForbiddenWrite: errorResponse(403, [E.forbiddenHost, E.insufficientScope, E.csrfRejected]),
  NotFound: errorResponse(404, [E.notFound]),
  PayloadTooLarge: errorResponse(413, [E.payloadTooLarge]),
  InternalError: errorResponse(500, [E.internal]),
  AuthUnavailable: errorResponse(503, [E.authUnavailable, E.shuttingDown]),
  StorageFull: errorResponse(507, [E.storageFull]),
};

function shared(response: ResponseObject): ResponseObject | ReferenceObject {
  const key = JSON.stringify(response);
  const name = Object.keys(SHARED_ERRORS).find((n) => JSON.stringify(SHARED_ERRORS[n]) === key);
  return name ? { $ref: `#/components/responses/${name}` } : response;
}

/** The envelope, with `error.code` narrowed to the codes this status answers here. */
function withCodes(codes: string[]): JsonSchema {
  return {
    allOf: [componentRef("ApiError"), { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } }],
  };
}
