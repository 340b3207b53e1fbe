import { route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { scrapeMetrics } from "@/lib/operations/metrics";

export const dynamic = "force-dynamic";

export const GET = route(api.getMetrics, async () => {
  const { text, contentType } = await scrapeMetrics();
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
