"use client";
// Context settings of the open session. Fractions are edited as percents because that
// is how the token bar speaks about them. Below them, the user's own summary templates.
import { useEffect, useId, useState, type FormEvent } from "react";
import type { ContextSettings, SettingsJson, TemplateJson } from "@/lib/api/types";
import { MODELS } from "@/lib/llm/models";
import * as api from "@/lib/client/api";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { useTemplatesStore } from "@/lib/client/templates-store";
import { SidePanel } from "@/components/SidePanel";

interface Draft {
  threshold: string;
  reservation: string;
  safety: string;
  model: string;
  autoCompact: boolean;
  target: string;
  summaryModel: string;
  template: string;
}

type PercentKey = "threshold" | "reservation" | "safety" | "target";

/** The settings edited as percents, with the bounds the server enforces. */
const PERCENT_FIELDS: Record<PercentKey, { label: string; hint: string; min: number; max: number }> = {
  threshold: {
    label: "Compaction threshold",
    hint: "Condense older turns when usage reaches this share of capacity.",
    min: 50,
    max: 95,
  },
  reservation: {
    label: "Output reservation",
    hint: "Share of the window kept for Claude's reply (capped at the model's output limit).",
    min: 5,
    max: 50,
  },
  safety: { label: "Safety buffer", hint: "Share of the window left free for estimation error.", min: 0, max: 30 },
  target: {
    label: "Compaction target",
    hint: "Usage a compaction aims for; well below the threshold so it does not run again soon.",
    min: 10,
    max: 70,
  },
};

const DEFAULT_TEMPLATE = "general";

function toPercent(fraction: number): string {
  return String(Math.round(fraction * 1000) / 10);
}

function toDraft(s: ContextSettings): Draft {
  return {
    threshold: toPercent(s.compaction_threshold),
    reservation: toPercent(s.output_reservation),
    safety: toPercent(s.safety_buffer),
    model: s.model,
    autoCompact: s.auto_compact,
    target: toPercent(s.compaction_target),
    summaryModel: s.summary_model,
    template: s.compaction_template,
  };
}

/** Field-level problems the server would reject anyway, caught before the round trip. */
function validate(d: Draft): string | null {
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

export function SettingsPanel({ sessionId, onClose }: { sessionId: string; onClose(): void }) {
  const [loaded, setLoaded] = useState<SettingsJson | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const templates = useTemplatesStore((s) => s.templates);
  const templatesError = useTemplatesStore((s) => s.error);

  useEffect(() => {
    void useTemplatesStore.getState().load();
  }, []);

  useEffect(() => {
    let live = true;
    api
      .getSettings(sessionId)
      .then((s) => {
        if (!live) return;
        setLoaded(s);
        setDraft(toDraft(s.effective));
      })
      .catch((err: unknown) => live && setError(api.describeError(err).message));
    return () => {
      live = false;
    };
  }, [sessionId]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    const problem = validate(draft);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const result = await api.putSettings(sessionId, {
        compaction_threshold: Number(draft.threshold) / 100,
        output_reservation: Number(draft.reservation) / 100,
        safety_buffer: Number(draft.safety) / 100,
        model: draft.model,
        auto_compact: draft.autoCompact,
        compaction_target: Number(draft.target) / 100,
        summary_model: draft.summaryModel,
        compaction_template: draft.template,
      });
      setLoaded(result);
      setDraft(toDraft(result.effective));
      setSaved(true);
      // Capacity and the model shown in the header both depend on these settings.
      void useStatusStore.getState().load(sessionId);
      void useSessionsStore.getState().refresh(sessionId);
    } catch (err) {
      // The server's message already names the offending field.
      setError(api.describeError(err).message);
    } finally {
      setSaving(false);
    }
  }

  const update = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => (d ? { ...d, ...patch } : d));
  };

  // Failing to load leaves no form, so the same alert then stands in its place.
  const errorAlert = error && (
    <p role="alert" data-testid="settings-error" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
      {error}
    </p>
  );

  return (
    <SidePanel
      title="Context settings"
      testId="settings-panel"
      closeLabel="Close settings"
      className="max-w-sm gap-4 bg-white dark:bg-zinc-900"
      onClose={onClose}
    >
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        For this session{loaded && Object.keys(loaded.settings).length === 0 ? " (using your defaults)" : ""}.
      </p>
      {!draft && !error && <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
      {draft && (
        <form onSubmit={save} noValidate className="flex flex-col gap-4">
          <PercentField name="threshold" value={draft.threshold} onChange={(threshold) => update({ threshold })} />
          <PercentField name="reservation" value={draft.reservation} onChange={(reservation) => update({ reservation })} />
          <PercentField name="safety" value={draft.safety} onChange={(safety) => update({ safety })} />
          <ModelField value={draft.model} onChange={(model) => update({ model })} />
          <fieldset className="flex flex-col gap-4 border-t border-zinc-200 dark:border-zinc-800 pt-4">
            <legend className="sr-only">Compaction</legend>
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">Compaction</h3>
            <CheckboxField
              label="Compact automatically"
              hint="Condense older turns into a summary when usage reaches the threshold. Off: the oldest turns slide out instead."
              checked={draft.autoCompact}
              testId="settings-auto-compact"
              onChange={(autoCompact) => update({ autoCompact })}
            />
            <PercentField name="target" value={draft.target} onChange={(target) => update({ target })} />
            <ModelField
              label="Summary model"
              testId="settings-summary-model"
              value={draft.summaryModel}
              onChange={(summaryModel) => update({ summaryModel })}
            />
            <TemplateField value={draft.template} templates={templates} onChange={(template) => update({ template })} />
          </fieldset>
          {errorAlert}
          {saved && (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              Saved.
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={onClose} className="rounded-md px-3 py-1.5 text-sm text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800">
              Close
            </button>
            <button
              type="submit"
              data-testid="settings-save"
              disabled={saving}
              className="rounded-md bg-zinc-900 dark:bg-zinc-100 px-3 py-1.5 text-sm font-medium text-white dark:text-zinc-900 hover:bg-zinc-700 dark:hover:bg-zinc-300 disabled:bg-zinc-300 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500"
            >
              {saving ? "Saving…" : "Save"}
            </button>
          </div>
        </form>
      )}
      {!draft && errorAlert}
      <TemplatesSection
        templates={templates}
        loadError={templatesError}
        onDeleted={(id) => {
          // A deleted template would fall back to the default anyway; say so in the form.
          if (draft?.template === id) update({ template: DEFAULT_TEMPLATE });
        }}
      />
    </SidePanel>
  );
}

function PercentField({ name, value, onChange }: { name: PercentKey; value: string; onChange(value: string): void }) {
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

function ModelField({
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
        className="rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-1.5 text-sm focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
      >
        {!known && <option value={value}>{value}</option>}
        {MODELS.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label} — {Math.round(m.contextWindow / 1000)}K window
          </option>
        ))}
      </select>
    </div>
  );
}

function CheckboxField({
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

function TemplateField({
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
        className="rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-1.5 text-sm focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
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

function TemplatesSection({
  templates,
  loadError,
  onDeleted,
}: {
  templates: TemplateJson[];
  loadError: string | null;
  onDeleted(id: string): void;
}) {
  const [name, setName] = useState("");
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const nameId = useId();
  const bodyId = useId();
  const own = templates.filter((t) => !t.preset);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!name.trim() || !body.trim()) {
      setError("A template needs a name and a body.");
      return;
    }
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const saved = await useTemplatesStore.getState().create({ name: name.trim(), body: body.trim() });
      setName("");
      setBody("");
      setNotice(`Saved "${saved.name}". Pick it as the summary template above.`);
    } catch (err) {
      setError(api.describeError(err).message);
    } finally {
      setBusy(false);
    }
  }

  async function remove(t: TemplateJson) {
    setDeleting(t.id);
    setError(null);
    setNotice(null);
    try {
      await useTemplatesStore.getState().remove(t.id);
      onDeleted(t.id);
      setNotice(`Deleted "${t.name}".`);
    } catch (err) {
      setError(api.describeError(err).message);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section className="flex flex-col gap-3 border-t border-zinc-200 dark:border-zinc-800 pt-4" aria-labelledby={`${nameId}-title`}>
      <h3 id={`${nameId}-title`} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Templates
      </h3>
      {loadError && (
        <p role="alert" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-xs text-red-800 dark:text-red-300">
          Could not load templates: {loadError}
        </p>
      )}
      {own.length > 0 ? (
        <ul className="flex flex-col gap-1" data-testid="template-list">
          {own.map((t) => (
            <li key={t.id} data-testid="template-item" className="flex items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate" title={t.body}>
                {t.name}
              </span>
              <button
                type="button"
                data-testid="template-delete"
                aria-label={`Delete template ${t.name}`}
                disabled={deleting === t.id}
                onClick={() => void remove(t)}
                className="rounded px-2 py-0.5 text-xs text-red-700 dark:text-red-400 hover:bg-red-50 dark:hover:bg-red-950/40 disabled:opacity-50"
              >
                {deleting === t.id ? "Deleting…" : "Delete"}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">No templates of your own yet. Presets: general, debugging, code review, architecture.</p>
      )}
      <form onSubmit={save} noValidate className="flex flex-col gap-2">
        <label htmlFor={nameId} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Name
        </label>
        <input
          id={nameId}
          data-testid="template-name"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          className="rounded-md border border-zinc-300 dark:border-zinc-700 px-2 py-1 text-sm focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
        />
        <label htmlFor={bodyId} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Instructions for the summary
        </label>
        <textarea
          id={bodyId}
          data-testid="template-body"
          value={body}
          rows={5}
          onChange={(e) => setBody(e.target.value)}
          placeholder="e.g. Summarize the conversation for a data migration: keep table names, row counts, failed queries and the rollback plan."
          className="resize-y rounded-md border border-zinc-300 dark:border-zinc-700 px-2 py-1 text-sm focus:border-zinc-500 dark:focus:border-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:focus:ring-sky-800"
        />
        {error && (
          <p role="alert" data-testid="template-error" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-xs text-red-800 dark:text-red-300">
            {error}
          </p>
        )}
        {notice && (
          <p role="status" data-testid="template-notice" className="text-xs text-emerald-700 dark:text-emerald-400">
            {notice}
          </p>
        )}
        <div className="flex justify-end">
          <button
            type="submit"
            data-testid="template-save"
            disabled={busy}
            className="rounded-md border border-zinc-300 dark:border-zinc-700 px-3 py-1 text-sm font-medium text-zinc-800 dark:text-zinc-200 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50"
          >
            {busy ? "Saving…" : "Save template"}
          </button>
        </div>
      </form>
    </section>
  );
}
