import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { clearCanvas, getCanvas } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

export const GET = route(api.getCanvas, async ({ params, query, caller }) => json(await getCanvas(caller.userId, params.id, query.checkpoint_id)));

export const DELETE = route(api.clearCanvas, async ({ params, caller }) => json(await clearCanvas(caller.userId, params.id)));
