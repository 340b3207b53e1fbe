"use client";
// Context settings of the open session. Below them, the user's own summary templates and API keys.
import { useEffect, useState, type FormEvent } from "react";
import type { SettingsJson } from "@/lib/api/types";
import * as api from "@/lib/client/api";
import { DEFAULT_TEMPLATE, fromDraft, toDraft, validate, type Draft } from "@/lib/client/settings-draft";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { useTemplatesStore } from "@/lib/client/templates-store";
import { SidePanel } from "@/components/SidePanel";
import { ApiKeysSection } from "@/components/settings/ApiKeysSection";
import { CheckboxField, ModelField, PercentField, TemplateField } from "@/components/settings/SettingsFields";
import { TemplatesSection } from "@/components/settings/TemplatesSection";

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
      const result = await api.putSettings(sessionId, fromDraft(draft));
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
          <fieldset className="flex flex-col gap-4 border-t border-zinc-200 dark:border-zinc-800 pt-4">
            <legend className="sr-only">Tools</legend>
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">Tools</h3>
            <CheckboxField
              label="Recall earlier conversations"
              hint="Let Claude search what was said before, in condensed turns of this session and in your other sessions, when you refer to it."
              checked={draft.recallTool}
              testId="settings-recall-tool"
              onChange={(recallTool) => update({ recallTool })}
            />
            <CheckboxField
              label="Canvas tools"
              hint="Let Claude put cards, charts, tables, images and questions on the canvas beside the chat, and keep a short list of them in its view."
              checked={draft.canvasTools}
              testId="settings-canvas-tools"
              onChange={(canvasTools) => update({ canvasTools })}
            />
            <PercentField name="canvasBudget" value={draft.canvasBudget} onChange={(canvasBudget) => update({ canvasBudget })} />
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
      <ApiKeysSection />
    </SidePanel>
  );
}
