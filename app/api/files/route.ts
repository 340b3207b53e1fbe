import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { storageOverview } from "@/lib/operations/files";

export const dynamic = "force-dynamic";

export const GET = route(api.listFiles, async ({ caller }) => json(await storageOverview(caller.userId), 200, { "cache-control": "no-store" }));
