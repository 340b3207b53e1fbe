import type { ContextSettings } from "@/lib/api/types";
import { DEFAULT_SUMMARY_MODEL } from "@/lib/llm/models";

export const DEFAULT_SETTINGS: Omit<ContextSettings, "model"> = {
  compaction_threshold: 0.8,
  output_reservation: 0.2,
  safety_buffer: 0.1,
  auto_compact: true,
  compaction_target: 0.4,
  summary_model: DEFAULT_SUMMARY_MODEL,
  compaction_template: "general",
  memory_budget: 0.05,
  memory_ttl_days: 30,
  recall_tool: true,
  canvas_tools: true,
  canvas_budget: 0.05,
};

/** Built-in defaults, then the user's defaults, then the session's overrides. */
export function resolveSettings(
  defaultModel: string,
  user: Partial<ContextSettings>,
  session: Partial<ContextSettings>,
): ContextSettings {
  return { ...DEFAULT_SETTINGS, model: defaultModel, ...user, ...session };
}
