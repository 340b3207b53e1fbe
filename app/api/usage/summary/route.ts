import { json, parseQuery, route } from "@/lib/api/http";
import { summaryQuery, usageSummary } from "@/lib/usage";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => json(await usageSummary(caller.userId, parseQuery(req, summaryQuery))));
