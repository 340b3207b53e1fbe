import { json, route } from "@/lib/api/http";
import { getModelJson } from "@/lib/api/openai/models";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.openaiGetModel, async ({ params }) => json(getModelJson(params.model_id)));
