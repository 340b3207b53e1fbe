// The context settings, declared once: each one's bounds, default, and the words the Settings
// panel and the API document use for it. The server's validation, the defaults a session
// starts from, the form's checks before the round trip and /api/openapi.json all read this.
import { z } from "zod";
import { DEFAULT_SUMMARY_MODEL, getModel, MODELS } from "@/lib/models";
import { described, named } from "./meta";

export const modelId = z.string().refine((id) => getModel(id) !== undefined, {
  message: `Unknown model. Known models: ${MODELS.map((m) => m.id).join(", ")}`,
});

interface Declared<S extends z.ZodType, D> {
  schema: S;
  /** null: the deployment decides (the default model comes from the environment). */
  fallback: D;
  description: string;
}

/** A share of capacity (or of the window), edited in the Settings panel as a percent. */
interface Fraction extends Declared<z.ZodNumber, number> {
  min: number;
  max: number;
  label: string;
  hint: string;
}

function fraction(min: number, max: number, fallback: number, text: { label: string; hint: string; description: string }): Fraction {
  return { schema: z.number().min(min).max(max), min, max, fallback, ...text };
}

const declared = <S extends z.ZodType, D>(schema: S, fallback: D, description: string): Declared<S, D> => ({ schema, fallback, description });

export const SETTINGS = {
  compaction_threshold: fraction(0.5, 0.95, 0.8, {
    label: "Compaction threshold",
    hint: "Condense older turns when usage reaches this share of capacity.",
    description: "Fraction of capacity at which automatic compaction runs.",
  }),
  output_reservation: fraction(0.05, 0.5, 0.2, {
    label: "Output reservation",
    hint: "Share of the window kept for Claude's reply (capped at the model's output limit).",
    description: "Fraction of the window reserved for the reply, capped at the model's max output.",
  }),
  safety_buffer: fraction(0, 0.3, 0.1, {
    label: "Safety buffer",
    hint: "Share of the window left free for estimation error.",
    description: "Fraction of the window kept free to absorb estimation error.",
  }),
  model: declared(modelId, null, "Model id from the registry; by default the server's default model."),
  auto_compact: declared(z.boolean(), true, "Compact automatically when usage reaches the threshold."),
  compaction_target: fraction(0.1, 0.7, 0.4, {
    label: "Compaction target",
    hint: "Usage a compaction aims for; well below the threshold so it does not run again soon.",
    description: "Fraction of capacity a compaction aims for, well below the threshold so it does not run again soon.",
  }),
  summary_model: declared(modelId, DEFAULT_SUMMARY_MODEL, "Model that writes summaries."),
  compaction_template: declared(
    z.string().min(1).max(100),
    "general",
    "A preset name (general, debugging, code_review, architecture) or a saved template's id.",
  ),
  memory_budget: fraction(0, 0.3, 0.05, {
    label: "Memory budget",
    hint: "Share of capacity that memories of earlier sessions may take in a new session.",
    description: "Fraction of capacity that memories of earlier sessions may take in a new session.",
  }),
  memory_ttl_days: declared(z.number().int().min(1).max(3650), 30, "Days until an unpinned memory expires."),
  recall_tool: declared(z.boolean(), true, "Offer Claude the recall tool, which searches condensed turns and other sessions."),
  canvas_tools: declared(z.boolean(), true, "Offer Claude the canvas tools, which put cards, charts, tables … on the canvas beside the chat."),
  thinking: declared(
    z.enum(["auto", "on", "off"]),
    "auto" as const,
    "Claude's extended thinking: auto follows the model's default (on for the Claude 5 family), on asks for it (adaptive where the model has it), off turns it off where the model allows.",
  ),
  canvas_budget: fraction(0.01, 0.3, 0.05, {
    label: "Canvas budget",
    hint: "Share of capacity the list of what is on the canvas may take in Claude's view; beyond it, older elements are listed by type and id only.",
    description: "Fraction of capacity the canvas's system-prompt section may take; over it, older elements are listed briefly.",
  }),
};

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
type Shape = { [K in SettingName]: Settings[K]["schema"] };
type Fallbacks = { [K in SettingName as Settings[K]["fallback"] extends null ? never : K]: Settings[K]["fallback"] };

const names = Object.keys(SETTINGS) as SettingName[];

function shape(): Shape {
  // A fresh, described schema per field: a description must not stick to a schema two fields share.
  return Object.fromEntries(names.map((n) => [n, described(SETTINGS[n].schema.clone(), SETTINGS[n].description)])) as unknown as Shape;
}

/** Every context setting with its validated range; stored and sent as partial overrides. */
export const settingsSchema = z.object(shape()).partial().strict();

// The settings a client sends are the settings it reads back: one schema for both.
export const settingsOverrides = named(
  "ContextSettingsOverrides",
  settingsSchema.clone(),
  "Settings stored at one scope: a session stores only what it overrides.",
);

export const contextSettings = named(
  "ContextSettings",
  z.object(shape()),
  "Every context setting, with defaults filled in: compaction_threshold, output_reservation, safety_buffer, compaction_target and memory_budget are fractions (of capacity, or of the window for the reservation and buffer).",
);

export type ContextSettings = z.infer<typeof contextSettings>;
export type SettingsOverrides = z.infer<typeof settingsSchema>;

/** The built-in defaults of every setting but the model, which the deployment chooses. */
export const DEFAULT_SETTINGS = Object.fromEntries(
  names.filter((n) => SETTINGS[n].fallback !== null).map((n) => [n, SETTINGS[n].fallback]),
) as Fallbacks satisfies Omit<ContextSettings, "model">;

/** The settings edited as percents. */
export type FractionName = { [K in SettingName]: Settings[K] extends Fraction ? K : never }[SettingName];
