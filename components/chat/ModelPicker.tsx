"use client";
// The open session's model, changed where chat apps put it: under the title. A change is the
// session's setting (the next reply uses it); the bar follows because capacity depends on it.
// A model with an announced end of life says when; a retired one is offered no more.
import { useId, useState } from "react";
import { ChevronDown } from "lucide-react";
import { MODELS, modelOptionLabel, pickableModels } from "@/lib/models";
import { describeError } from "@/lib/client/api/http";
import * as contextApi from "@/lib/client/api/context";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

export function ModelPicker({ sessionId, model, disabled }: { sessionId: string; model: string; disabled: boolean }) {
  const id = useId();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const known = MODELS.some((m) => m.id === model);

  const choose = async (next: string) => {
    setSaving(true);
    setError(null);
    try {
      await contextApi.putSettings(sessionId, { model: next });
      await Promise.all([useStatusStore.getState().load(sessionId), useSessionsStore.getState().refresh(sessionId)]);
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="flex min-w-0 items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Model
      </label>
      <span className="relative inline-flex min-w-0 items-center">
        <select
          id={id}
          data-testid="model-picker"
          value={model}
          disabled={disabled || saving}
          onChange={(e) => void choose(e.target.value)}
          className="min-w-0 max-w-full cursor-pointer appearance-none truncate [field-sizing:content] rounded bg-transparent py-0.5 pl-0 pr-5 text-xs text-zinc-500 hover:text-zinc-900 disabled:cursor-default disabled:opacity-60 dark:text-zinc-400 dark:hover:text-zinc-100"
        >
          {!known && <option value={model}>{model}</option>}
          {/* Retired models are not offered, unless it is this session's own (marked as such). */}
          {pickableModels(model).map((m) => (
            <option key={m.id} value={m.id}>
              {modelOptionLabel(m)}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden className="pointer-events-none absolute right-0 h-3.5 w-3.5 text-zinc-400" />
      </span>
      {error && (
        <span role="alert" className="truncate text-xs text-red-700 dark:text-red-400" title={error}>
          {error}
        </span>
      )}
    </div>
  );
}
