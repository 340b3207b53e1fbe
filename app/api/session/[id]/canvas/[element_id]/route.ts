import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { removeElement } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

export const DELETE = route(api.removeCanvasElement, async ({ params, caller }) => json(await removeElement(caller.userId, params.id, params.element_id)));
