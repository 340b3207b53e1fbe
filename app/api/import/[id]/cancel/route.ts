import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { cancelImport } from "@/lib/operations/import-job";

export const dynamic = "force-dynamic";

export const POST = route(api.cancelImport, async ({ params, caller }) => json({ import: await cancelImport(caller.userId, params.id) }));
