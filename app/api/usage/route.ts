import { json, parseQuery, route } from "@/lib/api/http";
import { csvResponse, usageQuery, usageReport, wantsCsv } from "@/lib/usage";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, usageQuery);
  const report = await usageReport(caller.userId, q);
  return wantsCsv(req, q.format) ? csvResponse(report) : json(report);
});
