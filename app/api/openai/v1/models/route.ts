import { json, route } from "@/lib/api/http";
import { listModels } from "@/lib/api/openai/models";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.openaiListModels, async () => json(listModels()));
