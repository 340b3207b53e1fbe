// The settings form's draft: fractions edited as percents (how the token bar speaks about
// them), checked before the round trip with the bounds the server enforces.
import { SETTINGS, type ContextSettings, type FractionName } from "@/lib/contract/settings";

export interface Draft {
  threshold: string;
  reservation: string;
  safety: string;
  model: string;
  autoCompact: boolean;
  target: string;
  summaryModel: string;
  template: string;
  recallTool: boolean;
  canvasTools: boolean;
  canvasBudget: string;
  thinking: ThinkingChoice;
}

export type ThinkingChoice = ContextSettings["thinking"];

export type PercentKey = "threshold" | "reservation" | "safety" | "target" | "canvasBudget";

const PERCENT_SETTING: Record<PercentKey, FractionName> = {
  threshold: "compaction_threshold",
  reservation: "output_reservation",
  safety: "safety_buffer",
  target: "compaction_target",
  canvasBudget: "canvas_budget",
};

/** The settings edited as percents, with the bounds the server enforces (lib/contract/settings.ts). */
export const PERCENT_FIELDS = Object.fromEntries(
  (Object.keys(PERCENT_SETTING) as PercentKey[]).map((key) => {
    const { label, hint, min, max } = SETTINGS[PERCENT_SETTING[key]];
    return [key, { label, hint, min: min * 100, max: max * 100 }];
  }),
) as Record<PercentKey, { label: string; hint: string; min: number; max: number }>;

export const DEFAULT_TEMPLATE = SETTINGS.compaction_template.fallback;

function toPercent(fraction: number): string {
  return String(Math.round(fraction * 1000) / 10);
}

export function toDraft(s: ContextSettings): Draft {
  return {
    threshold: toPercent(s.compaction_threshold),
    reservation: toPercent(s.output_reservation),
    safety: toPercent(s.safety_buffer),
    model: s.model,
    autoCompact: s.auto_compact,
    target: toPercent(s.compaction_target),
    summaryModel: s.summary_model,
    template: s.compaction_template,
    recallTool: s.recall_tool,
    canvasTools: s.canvas_tools,
    canvasBudget: toPercent(s.canvas_budget),
    thinking: s.thinking,
  };
}

/** Field-level problems the server would reject anyway, caught before the round trip. */
export function validate(d: Draft): string | null {
  for (const key of Object.keys(PERCENT_FIELDS) as PercentKey[]) {
    const n = Number(d[key]);
    const { label, min, max } = PERCENT_FIELDS[key];
    if (d[key].trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      return `${label} must be between ${min}% and ${max}%.`;
    }
  }
  if (!d.model.trim()) return "Model is required.";
  if (Number(d.target) >= Number(d.threshold)) {
    return "Compaction target must be below the compaction threshold, or every compaction would start the next one.";
  }
  if (!d.summaryModel.trim()) return "Summary model is required.";
  return null;
}

/** The settings a draft saves, fractions back from percents. */
export function fromDraft(d: Draft): Partial<ContextSettings> {
  return {
    compaction_threshold: Number(d.threshold) / 100,
    output_reservation: Number(d.reservation) / 100,
    safety_buffer: Number(d.safety) / 100,
    model: d.model,
    auto_compact: d.autoCompact,
    compaction_target: Number(d.target) / 100,
    summary_model: d.summaryModel,
    compaction_template: d.template,
    recall_tool: d.recallTool,
    canvas_tools: d.canvasTools,
    canvas_budget: Number(d.canvasBudget) / 100,
    thinking: d.thinking,
  };
}
