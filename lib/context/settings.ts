import type { ContextSettings } from "@/lib/api/types";

export const DEFAULT_SETTINGS: Omit<ContextSettings, "model"> = {
  compaction_threshold: 0.8,
  output_reservation: 0.2,
  safety_buffer: 0.1,
};

/** Built-in defaults, then the user's defaults, then the session's overrides. */
export function resolveSettings(
  defaultModel: string,
  user: Partial<ContextSettings>,
  session: Partial<ContextSettings>,
): ContextSettings {
  return { ...DEFAULT_SETTINGS, model: defaultModel, ...user, ...session };
}
