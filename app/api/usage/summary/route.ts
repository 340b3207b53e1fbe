import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { usageSummary } from "@/lib/usage";

export const dynamic = "force-dynamic";

export const GET = route(api.getUsageSummary, async ({ query, caller }) => json(await usageSummary(caller.userId, query)));
