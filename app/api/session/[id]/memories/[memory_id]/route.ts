import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { setLoadedDropped } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const DELETE = route(api.dropLoadedMemory, async ({ params, caller }) =>
  json({ loaded: await setLoadedDropped(caller.userId, params.id, params.memory_id, true) }),
);

export const POST = route(api.restoreLoadedMemory, async ({ params, caller }) =>
  json({ loaded: await setLoadedDropped(caller.userId, params.id, params.memory_id, false) }),
);
