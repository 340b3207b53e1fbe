// The Models API over the registry (lib/models.ts): newest first, paged by id as Anthropic pages.
import "server-only";
import type { z } from "zod";
import type { AnthropicModelJson, anthropicModelsQuery } from "@/lib/contract/anthropic";
import { notFound } from "@/lib/errors";
import { getModel, modelList, type ModelInfo } from "@/lib/models";

function modelJson(m: ModelInfo): AnthropicModelJson {
  return {
    type: "model",
    id: m.id,
    display_name: m.label,
    created_at: `${m.released}T00:00:00Z`,
    max_input_tokens: m.contextWindow,
    max_tokens: m.maxOutput,
  };
}

export function listModels(q: z.infer<typeof anthropicModelsQuery>) {
  const all = modelList();
  const at = (id: string | undefined) => (id === undefined ? -1 : all.findIndex((m) => m.id === id));
  let page: readonly ModelInfo[];
  if (q.before_id !== undefined) {
    const end = Math.max(at(q.before_id), 0);
    page = all.slice(Math.max(0, end - q.limit), end);
  } else {
    const start = at(q.after_id) + 1;
    page = all.slice(start, start + q.limit);
  }
  const data = page.map(modelJson);
  const lastIndex = page.length ? all.indexOf(page[page.length - 1]) : all.length;
  return {
    data,
    has_more: q.before_id !== undefined ? all.indexOf(page[0]) > 0 : lastIndex < all.length - 1,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  };
}

export function getModelJson(id: string): AnthropicModelJson {
  const m = getModel(id);
  if (!m) throw notFound("Model", id);
  return modelJson(m);
}
