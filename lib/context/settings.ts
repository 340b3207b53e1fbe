import { DEFAULT_SETTINGS, type ContextSettings } from "@/lib/contract/settings";

/** Built-in defaults, then the user's defaults, then the session's overrides. */
export function resolveSettings(
  defaultModel: string,
  user: Partial<ContextSettings>,
  session: Partial<ContextSettings>,
): ContextSettings {
  return { ...DEFAULT_SETTINGS, model: defaultModel, ...user, ...session };
}
