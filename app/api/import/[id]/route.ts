import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { importStatus } from "@/lib/operations/import-job";

export const dynamic = "force-dynamic";

export const GET = route(api.getImport, async ({ params, caller }) => json({ import: await importStatus(caller.userId, params.id) }));
