import { json, route } from "@/lib/api/http";
import { getModelJson } from "@/lib/api/anthropic/models";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.anthropicGetModel, async ({ params }) => json(getModelJson(params.model_id)));
