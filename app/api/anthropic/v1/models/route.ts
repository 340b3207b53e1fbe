import { json, route } from "@/lib/api/http";
import { listModels } from "@/lib/api/anthropic/models";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.anthropicListModels, async ({ query }) => json(listModels(query)));
