"use client";
// The settings form's fields: percents, models, checkboxes, thinking and the summary template.
import { useId } from "react";
import type { TemplateJson } from "@/lib/contract";
import { MODELS, modelOptionLabel, pickableModels } from "@/lib/models";
import { PERCENT_FIELDS, type PercentKey, type ThinkingChoice } from "@/lib/client/settings-draft";

const SELECT =
  "rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-1.5 text-sm focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800";

export function PercentField({ name, value, onChange }: { name: PercentKey; value: string; onChange(value: string): void }) {
  const id = useId();
  const { label, hint, min, max } = PERCENT_FIELDS[name];
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          data-testid={`settings-${name}`}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
          className="w-24 rounded-md border border-zinc-300 dark:border-zinc-700 px-2 py-1 text-sm tabular-nums focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
        />
        <span className="text-sm text-zinc-500 dark:text-zinc-400">%</span>
      </div>
      <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
        {hint} {min}–{max}%.
      </p>
    </div>
  );
}

export function ModelField({
  value,
  onChange,
  label = "Model",
  testId = "settings-model",
}: {
  value: string;
  onChange(value: string): void;
  label?: string;
  testId?: string;
}) {
  const id = useId();
  // A model no longer offered (or set through the API) still needs an option to show.
  const known = MODELS.some((m) => m.id === value);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <select
        id={id}
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={SELECT}
      >
        {!known && <option value={value}>{value}</option>}
        {pickableModels(value).map((m) => (
          <option key={m.id} value={m.id}>
            {modelOptionLabel(m)} — {Math.round(m.contextWindow / 1000)}K window
          </option>
        ))}
      </select>
    </div>
  );
}

export function CheckboxField({
  label,
  hint,
  checked,
  testId,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  testId: string;
  onChange(value: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        data-testid={testId}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 h-4 w-4 rounded border-zinc-300 dark:border-zinc-700 accent-zinc-900 dark:accent-zinc-100"
      />
      <div className="flex flex-col gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      </div>
    </div>
  );
}

export function TemplateField({
  value,
  templates,
  onChange,
}: {
  value: string;
  templates: TemplateJson[];
  onChange(value: string): void;
}) {
  const id = useId();
  const presets = templates.filter((t) => t.preset);
  const own = templates.filter((t) => !t.preset);
  // Until the list arrives (or when the chosen template was deleted), the value still needs an option.
  const known = templates.some((t) => t.id === value);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Summary template
      </label>
      <select
        id={id}
        data-testid="settings-template"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint`}
        className={SELECT}
      >
        {!known && <option value={value}>{templates.length === 0 ? value : `${value} (not found)`}</option>}
        {presets.length > 0 && (
          <optgroup label="Presets">
            {presets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </optgroup>
        )}
        {own.length > 0 && (
          <optgroup label="Your templates">
            {own.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
        How summaries are written. /compact --preset name overrides it once.
      </p>
    </div>
  );
}

const THINKING_CHOICES: { value: ThinkingChoice; label: string }[] = [
  { value: "auto", label: "The model's default" },
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
];

/** Claude's extended thinking; the hint says what the chosen model does by default and whether it can be turned off. */
export function ThinkingField({ value, model, onChange }: { value: ThinkingChoice; model: string; onChange(value: ThinkingChoice): void }) {
  const id = useId();
  const hintId = useId();
  const info = MODELS.find((m) => m.id === model)?.thinking;
  const hint = !info
    ? "Let Claude reason before it answers; the reasoning shows collapsed above the reply."
    : info.alwaysOn
      ? "This model always thinks; its reasoning shows collapsed above the reply."
      : `This model ${info.defaultOn ? "thinks" : "does not think"} by default; its reasoning shows collapsed above the reply.`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Extended thinking
      </label>
      <select
        id={id}
        aria-describedby={hintId}
        data-testid="settings-thinking"
        value={value}
        onChange={(e) => onChange(e.target.value as ThinkingChoice)}
        className={SELECT}
      >
        {THINKING_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
        {hint}
      </p>
    </div>
  );
}
