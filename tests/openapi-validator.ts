// Compiles the schemas of the OpenAPI document with Ajv (JSON Schema 2020-12, as OpenAPI 3.1
// uses) and validates real answers against the response the document promises for their
// operation and status. The whole document is added as one schema, so every
// `#/components/...` reference resolves exactly as a client's tooling would resolve it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormatsImport from "ajv-formats";
import type { OpenApiDocument, ReferenceObject, ResponseObject } from "@/lib/api/openapi/types";

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as typeof addFormatsImport;

const ROOT = "https://threadkeeper.test/openapi.json";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** A JSON pointer segment: `~` and `/` escaped. */
export const segment = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class DocumentValidator {
  readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    // The document's own keys are not JSON Schema keywords; Ajv only ever compiles the schema objects inside it.
    for (const keyword of ["openapi", "info", "servers", "tags", "paths", "components"]) this.ajv.addKeyword(keyword);
    this.ajv.addSchema({ ...doc, $id: ROOT });
  }

  /** The schema at a JSON pointer into the document (`/components/schemas/Session`), compiled. */
  compile(pointer: string): ValidateFunction {
    let fn = this.compiled.get(pointer);
    if (!fn) {
      fn = this.ajv.getSchema(`${ROOT}#${pointer}`);
      if (!fn) throw new Error(`no schema at ${pointer}`);
      this.compiled.set(pointer, fn);
    }
    return fn;
  }

  /** The response object (references followed) and its pointer, or null when the status is not documented. */
  response(method: HttpMethod, path: string, status: number): { pointer: string; response: ResponseObject } | null {
    const op = this.doc.paths[path]?.[method];
    if (!op) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
    const r = op.responses[String(status)];
    if (!r) return null;
    if (isRef(r)) {
      const name = r.$ref.replace("#/components/responses/", "");
      return { pointer: `/components/responses/${segment(name)}`, response: this.doc.components.responses[name] };
    }
    return { pointer: `/paths/${segment(path)}/${method}/responses/${status}`, response: r };
  }

  /** Errors of `body` against the documented answer, or a sentence saying why there is none to check against. */
  check(method: HttpMethod, path: string, status: number, contentType: string, body: unknown): string[] {
    const found = this.response(method, path, status);
    if (!found) return [`status ${status} is not documented for ${method.toUpperCase()} ${path}`];
    const type = contentType.split(";")[0].trim();
    if (!found.response.content) return body === null ? [] : [`${status} is documented without a body`];
    if (!found.response.content[type]) return [`${status} is not documented as ${type}`];
    const validate = this.compile(`${found.pointer}/content/${segment(type)}/schema`);
    return validate(body) ? [] : (validate.errors ?? []).map(describe);
  }
}

const isRef = (r: ResponseObject | ReferenceObject): r is ReferenceObject => "$ref" in r;

function describe(e: ErrorObject): string {
  return `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`;
}
