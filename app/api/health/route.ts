import pkg from "@/package.json";
import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import type { HealthJson, HealthUnavailableJson } from "@/lib/contract/health";
import { databaseHealth } from "@/lib/db/health";
import { isShuttingDown } from "@/lib/shutdown";

export const dynamic = "force-dynamic";

// Public (see its descriptor): no caller, so nothing here can reach anyone's data.
export const GET = route(api.getHealth, async () => {
  const headers = { "cache-control": "no-store" };
  // A stopping instance is not ready: the load balancer sends new requests elsewhere.
  if (isShuttingDown()) return json<HealthUnavailableJson>({ status: "unavailable", reason: "shutting down" }, 503, headers);
  const db = await databaseHealth();
  if (!db.ok) return json<HealthUnavailableJson>({ status: "unavailable", reason: db.reason }, 503, headers);
  return json<HealthJson>({ status: "ok", database: "ok", migration: db.migration, version: pkg.version }, 200, headers);
});
