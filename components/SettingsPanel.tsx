"use client";
// Context settings of the open session. Fractions are edited as percents because that
// is how the token bar speaks about them.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { ContextSettings, SettingsJson } from "@/lib/api/types";
import { MODELS } from "@/lib/llm/models";
import * as api from "@/lib/client/api";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

interface Draft {
  threshold: string;
  reservation: string;
  safety: string;
  model: string;
}

const LIMITS = {
  threshold: { min: 50, max: 95 },
  reservation: { min: 5, max: 50 },
  safety: { min: 0, max: 30 },
} as const;

function toPercent(fraction: number): string {
  return String(Math.round(fraction * 1000) / 10);
}

function toDraft(s: ContextSettings): Draft {
  return {
    threshold: toPercent(s.compaction_threshold),
    reservation: toPercent(s.output_reservation),
    safety: toPercent(s.safety_buffer),
    model: s.model,
  };
}

/** Field-level problems the server would reject anyway, caught before the round trip. */
function validate(d: Draft): string | null {
  for (const [key, label] of [
    ["threshold", "Compaction threshold"],
    ["reservation", "Output reservation"],
    ["safety", "Safety buffer"],
  ] as const) {
    const n = Number(d[key]);
    const { min, max } = LIMITS[key];
    if (d[key].trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      return `${label} must be between ${min}% and ${max}%.`;
    }
  }
  if (!d.model.trim()) return "Model is required.";
  return null;
}

export function SettingsPanel({ sessionId, onClose }: { sessionId: string; onClose(): void }) {
  const [loaded, setLoaded] = useState<SettingsJson | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

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

  useEffect(() => {
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

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

  const knownModel = draft ? MODELS.some((m) => m.id === draft.model) : true;
  const update = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => (d ? { ...d, ...patch } : d));
  };

  return (
    <div className="fixed inset-0 z-40 flex justify-end bg-zinc-900/20" onMouseDown={onClose}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid="settings-panel"
        onMouseDown={(e) => e.stopPropagation()}
        className="flex h-full w-full max-w-sm flex-col gap-4 overflow-y-auto bg-white p-5 shadow-xl outline-none"
      >
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="text-base font-semibold text-zinc-900">
            Context settings
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close settings"
            className="rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
          >
            ✕
          </button>
        </div>
        <p className="text-xs text-zinc-500">
          For this session{loaded && Object.keys(loaded.settings).length === 0 ? " (using your defaults)" : ""}.
        </p>
        {!draft && !error && <p className="text-sm text-zinc-500">Loading…</p>}
        {draft && (
          <form onSubmit={save} noValidate className="flex flex-col gap-4">
            <PercentField
              label="Compaction threshold"
              hint="Condense older turns when usage reaches this share of capacity."
              value={draft.threshold}
              limits={LIMITS.threshold}
              testId="settings-threshold"
              onChange={(threshold) => update({ threshold })}
            />
            <PercentField
              label="Output reservation"
              hint="Share of the window kept for Claude's reply (capped at the model's output limit)."
              value={draft.reservation}
              limits={LIMITS.reservation}
              testId="settings-reservation"
              onChange={(reservation) => update({ reservation })}
            />
            <PercentField
              label="Safety buffer"
              hint="Share of the window left free for estimation error."
              value={draft.safety}
              limits={LIMITS.safety}
              testId="settings-safety"
              onChange={(safety) => update({ safety })}
            />
            <ModelField value={draft.model} known={knownModel} onChange={(model) => update({ model })} />
            {error && (
              <p role="alert" data-testid="settings-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                {error}
              </p>
            )}
            {saved && (
              <p role="status" className="text-sm text-emerald-700">
                Saved.
              </p>
            )}
            <div className="flex justify-end gap-2">
              <button type="button" onClick={onClose} className="rounded-md px-3 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100">
                Close
              </button>
              <button
                type="submit"
                data-testid="settings-save"
                disabled={saving}
                className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:bg-zinc-300"
              >
                {saving ? "Saving…" : "Save"}
              </button>
            </div>
          </form>
        )}
        {!draft && error && (
          <p role="alert" data-testid="settings-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

function PercentField({
  label,
  hint,
  value,
  limits,
  testId,
  onChange,
}: {
  label: string;
  hint: string;
  value: string;
  limits: { min: number; max: number };
  testId: string;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          data-testid={testId}
          type="number"
          inputMode="decimal"
          min={limits.min}
          max={limits.max}
          step={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
          className="w-24 rounded-md border border-zinc-300 px-2 py-1 text-sm tabular-nums focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200"
        />
        <span className="text-sm text-zinc-500">%</span>
      </div>
      <p id={`${id}-hint`} className="text-xs text-zinc-500">
        {hint} {limits.min}–{limits.max}%.
      </p>
    </div>
  );
}

function ModelField({ value, known, onChange }: { value: string; known: boolean; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        Model
      </label>
      <select
        id={id}
        data-testid="settings-model"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200"
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
