import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import type { StorageJson } from "@/lib/contract/health";
import { storageReading } from "@/lib/db/storage";
import { authMode } from "@/lib/mode";

export const dynamic = "force-dynamic";

export const GET = route(api.getStorage, async () => {
  const s = await storageReading();
  // The server's disk is its operator's business; in local mode that is the one user.
  const figures = authMode() === "local" && s.freeBytes !== null;
  return json<StorageJson>(
    {
      level: s.level,
      free_bytes: figures ? s.freeBytes : null,
      warn_below_bytes: figures ? s.warnBytes : null,
      refuse_below_bytes: figures ? s.floorBytes : null,
    },
    200,
    { "cache-control": "no-store" },
  );
});
