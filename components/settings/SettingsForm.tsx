"use client";
// The context settings form, for a session or (sessionId null) for the account's defaults,
// which new sessions start from. A session's form can also make its values the defaults.
import { useEffect, useState, type FormEvent } from "react";
import type { SettingsJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as contextApi from "@/lib/client/api/context";
import { DEFAULT_TEMPLATE, fromDraft, toDraft, validate, type Draft } from "@/lib/client/settings-draft";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { useTemplatesStore } from "@/lib/client/templates-store";
import { CheckboxField, ModelField, PercentField, TemplateField, ThinkingField } from "@/components/settings/SettingsFields";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const PRIMARY =
  "rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:bg-zinc-300 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500";
const SECONDARY =
  "rounded-md border border-zinc-300 px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800";

export function SettingsForm({ sessionId }: { sessionId: string | null }) {
  const [loaded, setLoaded] = useState<SettingsJson | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const templates = useTemplatesStore((s) => s.templates);
  const templatesLoaded = useTemplatesStore((s) => s.loaded);

  useEffect(() => {
    void useTemplatesStore.getState().load();
    let live = true;
    contextApi
      .getSettings(sessionId)
      .then((s) => {
        if (!live) return;
        setLoaded(s);
        setDraft(toDraft(s.effective));
      })
      .catch((err: unknown) => live && setError(describeError(err).message));
    return () => {
      live = false;
    };
  }, [sessionId]);

  // A template of one's own deleted since (its id is a uuid, a preset's a name) would fall back
  // to the default anyway; say so in the form.
  const template = draft?.template;
  useEffect(() => {
    if (templatesLoaded && template && UUID.test(template) && !templates.some((t) => t.id === template)) {
      setDraft((d) => (d ? { ...d, template: DEFAULT_TEMPLATE } : d));
    }
  }, [templates, templatesLoaded, template]);

  async function store(target: string | null, e?: FormEvent) {
    e?.preventDefault();
    if (!draft) return;
    const problem = validate(draft);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(null);
    try {
      const result = await contextApi.putSettings(target, fromDraft(draft));
      if (target === sessionId) {
        setLoaded(result);
        setDraft(toDraft(result.effective));
      }
      setSaved(target === null && sessionId !== null ? "Saved as your default for new sessions." : "Saved.");
      if (sessionId && target === sessionId) {
        // Capacity and the model shown in the header both depend on these settings.
        void useStatusStore.getState().load(sessionId);
        void useSessionsStore.getState().refresh(sessionId);
      }
    } catch (err) {
      // The server's message already names the offending field.
      setError(describeError(err).message);
    } finally {
      setSaving(false);
    }
  }

  const update = (patch: Partial<Draft>) => {
    setSaved(null);
    setDraft((d) => (d ? { ...d, ...patch } : d));
  };

  // Failing to load leaves no form, so the same alert then stands in its place.
  const errorAlert = error && (
    <p role="alert" data-testid="settings-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300">
      {error}
    </p>
  );

  if (!draft) return errorAlert || <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>;
  return (
    <form onSubmit={(e) => void store(sessionId, e)} noValidate className="flex flex-col gap-4" data-testid={sessionId ? "session-settings-form" : "default-settings-form"}>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {sessionId
          ? `For this session${loaded && Object.keys(loaded.settings).length === 0 ? " (using your defaults)" : ""}.`
          : "New sessions start with these; a session's own settings override them."}
      </p>
      <ModelField value={draft.model} onChange={(model) => update({ model })} />
      <ThinkingField value={draft.thinking} model={draft.model} onChange={(thinking) => update({ thinking })} />
      <PercentField name="threshold" value={draft.threshold} onChange={(threshold) => update({ threshold })} />
      <PercentField name="reservation" value={draft.reservation} onChange={(reservation) => update({ reservation })} />
      <PercentField name="safety" value={draft.safety} onChange={(safety) => update({ safety })} />
      <fieldset className="flex flex-col gap-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
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
        <ModelField label="Summary model" testId="settings-summary-model" value={draft.summaryModel} onChange={(summaryModel) => update({ summaryModel })} />
        <TemplateField value={draft.template} templates={templates} onChange={(template) => update({ template })} />
      </fieldset>
      <fieldset className="flex flex-col gap-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
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
          {saved}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {sessionId && (
          <button type="button" data-testid="settings-save-default" disabled={saving} onClick={() => void store(null)} className={SECONDARY}>
            Save as my default
          </button>
        )}
        <button type="submit" data-testid="settings-save" disabled={saving} className={PRIMARY}>
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
