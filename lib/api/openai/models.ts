// OpenAI's Models API over the registry (lib/models.ts), newest first: what Open WebUI and
// LibreChat (`fetch: true`) read to fill their model pickers.
import "server-only";
import type { OpenAIModelJson, OpenAIModelListJson } from "@/lib/contract/openai";
import { AppError } from "@/lib/errors";
import { getModel, modelList, type ModelInfo } from "@/lib/models";

function modelJson(m: ModelInfo): OpenAIModelJson {
  return { id: m.id, object: "model", created: Math.floor(Date.parse(`${m.released}T00:00:00Z`) / 1000), owned_by: "anthropic" };
}

export function listModels(): OpenAIModelListJson {
  return { object: "list", data: modelList().map(modelJson) };
}

export function getModelJson(id: string): OpenAIModelJson {
  const m = getModel(id);
  if (!m) throw new AppError(404, "model_not_found", `The model '${id}' does not exist.`, { param: "model" });
  return modelJson(m);
}
