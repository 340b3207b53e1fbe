// A Prometheus scrape: what is counted as it happens (lib/metrics.ts), plus what is read now:
// the webhook queue's depth (one count on its partial index, on the app's own role: the queue
// spans users) and the database pool.
import "server-only";
import { getDb } from "@/lib/db";
import { webhookQueueDepth } from "@/lib/db/webhooks";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";

/** The exposition text and its content type. */
export async function scrapeMetrics(): Promise<{ text: string; contentType: string }> {
  const m = metrics();
  const db = await getDb();
  try {
    m.webhookQueueDepth.set(await db.transaction((tx) => webhookQueueDepth(tx)));
  } catch (err) {
    // A scrape still answers with everything else; the gauge keeps its last value.
    log.error("[threadkeeper] reading the webhook queue depth for metrics failed", err);
  }
  const pool = db.pool?.();
  if (pool) {
    m.dbPool.set({ state: "in_use" }, pool.inUse);
    m.dbPool.set({ state: "max" }, pool.max);
  }
  return { text: await m.registry.metrics(), contentType: m.registry.contentType };
}
