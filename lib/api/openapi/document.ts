import "server-only";
import pkg from "@/package.json";
import { buildDocument } from "./builder";
import { GROUPS } from "@/lib/contract/endpoints";
import type { OpenApiDocument } from "./types";

const DESCRIPTION = [
  "A context-managed Claude backend: sessions whose context window is measured, condensed and checkpointed so a conversation never overflows.",
  "",
  "**Auth.** Local mode (no `SUPABASE_URL`) has one user and needs no credentials. SaaS mode needs a Supabase access token (`Authorization: Bearer <JWT>`) or the browser's session cookie; API keys (`Authorization: Bearer tk_live_…`, scopes read/write/admin) work in both modes.",
  "",
  "**Errors** are always `{ \"error\": { \"code\", \"message\", \"details\"? } }` with the matching status. Another user's object is a 404 exactly like one that never existed; an unknown `/api/…` path is a 404 too.",
  "",
  "**Browser writes** (cookie or local mode) must be `content-type: application/json` and same-origin, bodiless DELETEs included.",
].join("\n");

let cached: OpenApiDocument | undefined;

/** Built once per process: it depends only on the schemas compiled into it. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildDocument(GROUPS, { title: "Threadkeeper API", version: pkg.version, description: DESCRIPTION });
  return cached;
}
