// The parts of an OpenAPI 3.1 document this builder writes.
import "server-only";
import type { z } from "zod";

export type JsonSchema = z.core.JSONSchema.JSONSchema;

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface ReferenceObject {
  $ref: string;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject | ReferenceObject>;
  security: SecurityRequirement[];
}

export type PathItemObject = Partial<Record<"get" | "post" | "put" | "patch" | "delete", OperationObject>>;

export interface SecuritySchemeObject {
  type: "http" | "apiKey";
  description: string;
  scheme?: string;
  bearerFormat?: string;
  in?: "cookie" | "header" | "query";
  name?: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
}
