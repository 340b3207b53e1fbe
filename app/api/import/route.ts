import { json, route } from "@/lib/api/http";
import { receiveUpload } from "@/lib/api/import-upload";
import { api } from "@/lib/contract/endpoints";
import { DEFAULT_IMPORT_MAX_BYTES } from "@/lib/contract/imports";
import { env } from "@/lib/env";
import { importHistory, startImport, uploadTarget } from "@/lib/operations/import-job";

export const dynamic = "force-dynamic";

export const POST = route(api.startImport, async ({ req, caller }) => {
  const target = await uploadTarget();
  const received = await receiveUpload(req, target, env().THREADKEEPER_IMPORT_MAX_BYTES ?? DEFAULT_IMPORT_MAX_BYTES);
  return json({ import: await startImport(caller.userId, target, received) }, 202);
});

export const GET = route(api.listImports, async ({ query, caller }) => json({ imports: await importHistory(caller.userId, query.limit) }));
