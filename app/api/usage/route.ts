import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { csvResponse, usageReport, wantsCsv } from "@/lib/usage";

export const dynamic = "force-dynamic";

export const GET = route(api.getUsage, async ({ req, query, caller }) => {
  const report = await usageReport(caller.userId, query);
  return wantsCsv(req, query.format) ? csvResponse(report) : json(report);
});
