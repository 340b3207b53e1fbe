// Browser client for GET /api/storage: what the storage banner shows.
import type { StorageJson } from "@/lib/contract/health";
import { json } from "@/lib/client/api/http";

export function storageStatus(signal?: AbortSignal): Promise<StorageJson> {
  return json<StorageJson>("/api/storage", { signal });
}
