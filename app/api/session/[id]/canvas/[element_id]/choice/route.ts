import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { chooseOption } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

export const POST = route(api.chooseCanvasOption, async ({ params, body, caller }) => json(await chooseOption(caller.userId, params.id, params.element_id, body.choice)));
