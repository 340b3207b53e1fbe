// /api/openapi.json: it names every route file's every method (and nothing else), and it is a
// sound OpenAPI 3.1 document: references resolve, operations answer, ids are unique, path
// parameters match their templates, and Ajv compiles every schema in it.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { idParams } from "@/lib/contract/requests";
import { buildDocument } from "@/lib/api/openapi/builder";
import { named } from "@/lib/contract/meta";
import { openApiDocument } from "@/lib/api/openapi/document";
import { METHODS, type Endpoint } from "@/lib/contract/endpoint";
import { UNDOCUMENTED_ROUTES } from "@/lib/contract/endpoints";
import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject, ResponseObject } from "@/lib/api/openapi/types";
import { DocumentValidator, segment, type HttpMethod } from "../openapi-validator";
import { routeFiles, routeOf } from "../api-routes";



/** `/api/session/[id]` -> `/api/session/{id}`, as OpenAPI writes it. */
const templateOf = (route: string) => route.replace(/\[(\w+)\]/g, "{$1}");

const doc: OpenApiDocument = openApiDocument();

function operations(d: OpenApiDocument): [string, HttpMethod, OperationObject][] {
  return Object.entries(d.paths).flatMap(([p, item]) =>
    Object.entries(item).map(([m, op]) => [p, m as HttpMethod, op as OperationObject] as [string, HttpMethod, OperationObject]),
  );
}

describe("the document covers the routes", () => {
  const exported: string[] = [];
  const undocumented: string[] = [];
  const bound: string[] = [];
  const describe = (e: Endpoint | undefined) => (e ? `${e.method} ${e.path}` : "no descriptor");

  beforeAll(async () => {
    for (const file of await routeFiles()) {
      const route = routeOf(file);
      const mod = (await import(file)) as Record<string, unknown>;
      const methods = METHODS.filter((m) => typeof mod[m] === "function");
      // Each handler runs the descriptor of its own method and path (route() attaches it).
      if (!(route in UNDOCUMENTED_ROUTES)) {
        for (const m of methods) bound.push(`${m} ${templateOf(route)} -> ${describe((mod[m] as { endpoint?: Endpoint }).endpoint)}`);
      }
      if (route in UNDOCUMENTED_ROUTES) undocumented.push(route);
      else exported.push(...methods.map((m) => `${m} ${templateOf(route)}`));
    }
  }, 60_000);

  it("has an operation for each exported method of each app/api/**/route.ts, and none that does not exist", () => {
    const documented = operations(doc).map(([p, m]) => `${m.toUpperCase()} ${p}`);
    expect(exported.length).toBeGreaterThan(40);
    expect(exported.filter((r) => !documented.includes(r)), "routes missing from the document").toEqual([]);
    expect(documented.filter((r) => !exported.includes(r)), "operations naming no route").toEqual([]);
  });

  it("binds each route file's handler to the descriptor of its own method and path", () => {
    expect(bound.length).toBeGreaterThan(40);
    expect(bound.filter((b) => b.split(" -> ")[0] !== b.split(" -> ")[1])).toEqual([]);
  });

  it("leaves out only the routes it says why it leaves out, and those exist", () => {
    expect(undocumented.sort()).toEqual(Object.keys(UNDOCUMENTED_ROUTES).sort());
  });
});

describe("the document is sound OpenAPI 3.1", () => {
  it("names its version and the API", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    // OpenAPI's own rule for component names.
    for (const group of [doc.components.schemas, doc.components.responses, doc.components.securitySchemes]) {
      for (const name of Object.keys(group)) expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
    }
  });

  it("resolves every $ref", () => {
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "$ref" && typeof x === "string") refs.push(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    const unresolved = [...new Set(refs)].filter((ref) => {
      if (!ref.startsWith("#/")) return true;
      let node: unknown = doc;
      for (const part of ref.slice(2).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))) {
        node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
      }
      return node === undefined;
    });
    expect(unresolved).toEqual([]);
  });

  it("gives every operation a unique operationId, a summary, a tag it declares, a success answer and described responses", () => {
    const ids = operations(doc).map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const [p, m, op] of operations(doc)) {
      const where = `${m} ${p}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.tags.every((t) => tags.has(t)), where).toBe(true);
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => /^2\d\d$/.test(s)), where).toBe(true);
      for (const s of statuses) expect(s, where).toMatch(/^[1-5]\d\d$/);
      for (const r of Object.values(op.responses)) if (!("$ref" in r)) expect(r.description, where).toBeTruthy();
    }
    for (const r of Object.values(doc.components.responses)) expect(r.description).toBeTruthy();
  });

  it("answers every operation's failures in its error envelope, 401 and 500 included", () => {
    for (const [p, m, op] of operations(doc)) {
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // The health check's 503 is its own answer (load balancers read `status`), not an error.
        if (p === "/api/health" && status === "503") {
          expect(JSON.stringify(r)).toContain('#/components/schemas/HealthUnavailable"');
          continue;
        }
        const response = "$ref" in r ? doc.components.responses[r.$ref.split("/").pop() ?? ""] : (r as ResponseObject);
        // The drop-in Messages API answers in Anthropic's own error shape, the OpenAI-compatible endpoint in OpenAI's.
        // The MCP endpoint's 401 is OAuth's (RFC 6750); its 403 is that or the envelope.
        const envelope = p.startsWith("/api/anthropic/")
          ? "AnthropicError"
          : p.startsWith("/api/openai/")
            ? "OpenAIError"
            : p === "/api/mcp" && status === "401"
              ? "BearerError"
              : "ApiError";
        expect(JSON.stringify(response.content?.["application/json"]?.schema), `${m} ${p} ${status}`).toContain(`#/components/schemas/${envelope}"`);
        if (p === "/api/mcp" && status === "403") expect(JSON.stringify(response.content?.["application/json"]?.schema)).toContain('#/components/schemas/BearerError"');
      }
      // A public operation reads no credentials, so it never answers 401.
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(op.security.length === 0 ? ["403", "500"] : ["401", "403", "500"]));
    }
  });

  it("declares each path parameter of each template, required, and no other", () => {
    for (const [p, m, op] of operations(doc)) {
      const named = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
      const inPath = (op.parameters ?? []).filter((x: ParameterObject) => x.in === "path");
      expect(inPath.map((x) => x.name).sort(), `${m} ${p}`).toEqual(named);
      expect(inPath.every((x) => x.required)).toBe(true);
      const keys = (op.parameters ?? []).map((x) => `${x.in}:${x.name}`);
      expect(new Set(keys).size, `${m} ${p}`).toBe(keys.length);
    }
  });

  it("secures every operation with the session, the access token or an API key of a known scope", () => {
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    expect(schemes).toEqual(new Set(["supabaseToken", "supabaseSession", "apiKey", "metricsToken"]));
    // Only the health check answers without credentials.
    expect(operations(doc).filter(([, , op]) => op.security.length === 0).map(([p, m]) => `${m} ${p}`)).toEqual(["get /api/health"]);
    for (const [p, m, op] of operations(doc)) {
      if (p === "/api/health") continue;
      // The operator's endpoint (metrics) takes the metrics token, or in local mode an admin key;
      // no other operation takes the token.
      expect(op.security.length, `${m} ${p}`).toBe(p === "/api/metrics" ? 2 : 3);
      expect(op.security.some((r) => "metricsToken" in r), `${m} ${p}`).toBe(p === "/api/metrics");
      for (const requirement of op.security) for (const name of Object.keys(requirement)) expect(schemes.has(name)).toBe(true);
      const scopes = op.security.flatMap((r) => r.apiKey ?? []);
      expect(scopes.length).toBe(1);
      expect(["read", "write", "admin"]).toContain(scopes[0]);
      // Reads need `read`, except the key list, which is part of managing keys (`admin`).
      if (m === "get") expect(scopes[0], `${m} ${p}`).toBe(p.startsWith("/api/keys") || p === "/api/metrics" ? "admin" : "read");
    }
  });

  it("documents the send's event stream with every event name", () => {
    const send = doc.paths["/api/session/{id}/messages"].post;
    const stream = (send?.responses["200"] as ResponseObject).content?.["text/event-stream"]?.schema as JsonSchema;
    expect(stream.type).toBe("array");
    const union = doc.components.schemas.SendEvent.oneOf ?? doc.components.schemas.SendEvent.anyOf ?? [];
    const names = union.map((s) => ((s.properties?.event as JsonSchema | undefined)?.const as string | undefined) ?? "");
    expect(names.sort()).toEqual(
      ["assistant_message", "block", "canvas", "checkpoint", "compaction", "delta", "done", "error", "memories", "notice", "status", "usage", "user_message"].sort(),
    );
    expect((send?.responses["201"] as ResponseObject).content?.["application/json"]).toBeTruthy();
  });

  it("compiles every schema in it with Ajv (JSON Schema 2020-12)", () => {
    const v = new DocumentValidator(doc);
    const pointers: string[] = Object.keys(doc.components.schemas).map((n) => `/components/schemas/${segment(n)}`);
    const media = (base: string, r: ResponseObject) => {
      for (const type of Object.keys(r.content ?? {})) pointers.push(`${base}/content/${segment(type)}/schema`);
      for (const h of Object.keys(r.headers ?? {})) pointers.push(`${base}/headers/${segment(h)}/schema`);
    };
    for (const [name, r] of Object.entries(doc.components.responses)) media(`/components/responses/${segment(name)}`, r);
    for (const [p, m, op] of operations(doc)) {
      const base = `/paths/${segment(p)}/${m}`;
      (op.parameters ?? []).forEach((_, i) => pointers.push(`${base}/parameters/${i}/schema`));
      for (const type of Object.keys(op.requestBody?.content ?? {})) pointers.push(`${base}/requestBody/content/${segment(type)}/schema`);
      for (const [status, r] of Object.entries(op.responses)) if (!("$ref" in r)) media(`${base}/responses/${status}`, r);
    }
    expect(pointers.length).toBeGreaterThan(100);
    for (const pointer of pointers) {
      expect(() => v.compile(pointer), pointer).not.toThrow();
      const schema = pointer.split("/").slice(1).reduce<unknown>((node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
      expect(v.ajv.validateSchema(schema as object), `${pointer}: ${v.ajv.errorsText()}`).toBe(true);
    }
  });

  it("is plain JSON, the same on every call", () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(openApiDocument()).toBe(doc);
  });
});

describe("the builder refuses a registry that would mislead", () => {
  const info = { title: "t", version: "1.0.0", description: "d" };
  const op = (over: Partial<Endpoint>): Endpoint => ({
    method: "GET",
    path: "/api/x/{id}",
    operationId: "getX",
    summary: "x",
    params: idParams,
    responses: { 200: { description: "ok", json: z.object({ ok: z.boolean() }) } },
    ...over,
  });
  // One group per endpoint: a group's endpoints are keyed by operationId, so a repeated id can only come from two groups.
  const build = (...endpoints: Endpoint[]) => () =>
    buildDocument(endpoints.map((e) => ({ tag: "X", description: "x", endpoints: { [e.operationId]: e } })), info);

  it("a path template and params that name different parameters", () => {
    expect(build(op({ path: "/api/x/{session_id}" }))).toThrow(/path names \{session_id\}/);
    expect(build(op({ params: undefined }))).toThrow(/params declare none/);
  });

  it("one operationId twice, or one method and path twice", () => {
    expect(build(op({}), op({ path: "/api/y/{id}" }))).toThrow(/operationId getX/);
    expect(build(op({}), op({ operationId: "again" }))).toThrow(/listed twice/);
  });

  it("(a public endpoint is documented without security and without 401)", () => {
    const d = build(op({ public: true }))();
    const o = d.paths["/api/x/{id}"].get;
    expect(o?.security).toEqual([]);
    expect(Object.keys(o?.responses ?? {}).sort()).toEqual(["200", "403", "404", "500"]);
  });

  it("two different shapes under one component name, or a named shape that reads differently in and out", () => {
    const reply = (json: z.ZodType) => ({ 200: { description: "ok", json } });
    const a = named("Clash", z.object({ a: z.string() }));
    const b = named("Clash", z.object({ b: z.string() }));
    expect(build(op({ responses: reply(a) }), op({ operationId: "b", path: "/api/b/{id}", responses: reply(b) }))).toThrow(
      /Two different schemas are named Clash/,
    );
    // A default makes the field optional in a request and present in an answer.
    const d = named("Defaulted", z.object({ n: z.number().default(1) }));
    expect(build(op({ method: "POST", body: d, responses: reply(d) }))).toThrow(/Two different schemas are named Defaulted/);
  });
});
