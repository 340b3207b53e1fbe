// The capacity model: C = W − R − S is the most input ever sent, so a reply always has
// room (R) and estimation error has somewhere to land (S).
import type { ModelInfo } from "@/lib/models";
import type { ContextStatusLevel } from "@/lib/contract";

export interface Capacity {
  window: number;
  reserved: number;
  safety: number;
  capacity: number;
}

export function computeCapacity(
  model: ModelInfo,
  s: { output_reservation: number; safety_buffer: number },
): Capacity {
  const window = model.contextWindow;
  // Reserving more than the model can ever write would waste input space for nothing.
  const reserved = Math.min(Math.round(s.output_reservation * window), model.maxOutput);
  const safety = Math.round(s.safety_buffer * window);
  return { window, reserved, safety, capacity: window - reserved - safety };
}

export const WARNING_PERCENT = 70;
export const CRITICAL_PERCENT = 85;

export function statusLevel(usagePercent: number): ContextStatusLevel {
  if (usagePercent >= CRITICAL_PERCENT) return "critical";
  if (usagePercent >= WARNING_PERCENT) return "warning";
  return "normal";
}
