import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { startArchive } from "@/lib/operations/import-archive";

export const dynamic = "force-dynamic";

export const POST = route(api.archiveImport, async ({ params, caller }) => json({ import: await startArchive(caller.userId, params.id) }, 202));
