"use client";
// The user's own summary templates: add one, delete one.
import { useId, useState, type FormEvent } from "react";
import type { TemplateJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import { useTemplatesStore } from "@/lib/client/templates-store";

export function TemplatesSection({
  templates,
  loadError,
}: {
  templates: TemplateJson[];
  loadError: string | null;
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
      setError(describeError(err).message);
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
      setNotice(`Deleted "${t.name}".`);
    } catch (err) {
      setError(describeError(err).message);
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
