"use client";
// One key in the list: name, visible prefix, scopes, when it was made, last used and expires,
// which of Threadkeeper's own tools its API sessions offer Claude, and revoking it after a
// confirmation (integrations using it stop at once).
import { useId, useState } from "react";
import { Trash2 } from "lucide-react";
import type { ApiKeyJson, ApiTool } from "@/lib/contract";
import { relativeTime } from "@/lib/client/format";

/** The choices of Threadkeeper's own tools, by the value the select holds. */
const TOOL_CHOICES: { value: string; tools: ApiTool[] | null; label: string }[] = [
  { value: "default", tools: null, label: "Session settings (recall in new sessions)" },
  { value: "recall", tools: ["recall"], label: "Recall" },
  { value: "recall,canvas", tools: ["recall", "canvas"], label: "Recall and canvas" },
  { value: "canvas", tools: ["canvas"], label: "Canvas" },
  { value: "none", tools: [], label: "None" },
];

const choiceOf = (tools: ApiKeyJson["tools"]) => (tools === null ? "default" : tools.length === 0 ? "none" : tools.join(","));

/** "in 29 d", "in 3 h": how long until a future moment. */
function untilTime(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  if (s < 3600) return `in ${Math.max(1, Math.floor(s / 60))} min`;
  if (s < 86_400) return `in ${Math.floor(s / 3600)} h`;
  if (s < 60 * 86_400) return `in ${Math.floor(s / 86_400)} d`;
  return `on ${new Date(iso).toLocaleDateString()}`;
}

function when(key: ApiKeyJson): string[] {
  const parts = [`Created ${relativeTime(key.created_at)}`];
  if (key.status === "revoked" && key.revoked_at) return [...parts, `revoked ${relativeTime(key.revoked_at)}`];
  parts.push(key.last_used_at ? `last used ${relativeTime(key.last_used_at)}` : "never used");
  if (key.expires_at) parts.push(key.status === "expired" ? `expired ${relativeTime(key.expires_at)}` : `expires ${untilTime(key.expires_at)}`);
  return parts;
}

export function ApiKeyItem({
  apiKey,
  onRevoke,
  onTools,
}: {
  apiKey: ApiKeyJson;
  onRevoke(key: ApiKeyJson): Promise<void>;
  onTools(key: ApiKeyJson, tools: ApiTool[] | null): Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);
  const toolsId = useId();
  const active = apiKey.status === "active";

  async function chooseTools(value: string) {
    const choice = TOOL_CHOICES.find((c) => c.value === value);
    if (!choice) return;
    setSaving(true);
    try {
      await onTools(apiKey, choice.tools);
    } finally {
      setSaving(false);
    }
  }

  async function revoke() {
    setBusy(true);
    try {
      await onRevoke(apiKey);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <li
      data-testid="api-key-item"
      data-status={apiKey.status}
      className={`flex flex-col gap-1 rounded-md border px-3 py-2 text-sm ${
        active ? "border-zinc-200 dark:border-zinc-700" : "border-dashed border-zinc-200 opacity-70 dark:border-zinc-800"
      }`}
    >
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-zinc-900 dark:text-zinc-100" title={apiKey.name}>
            {apiKey.name}
          </p>
          <p className="truncate font-mono text-xs text-zinc-500 dark:text-zinc-400" data-testid="api-key-prefix">
            {apiKey.prefix}…
          </p>
        </div>
        {active && !confirming && (
          <button
            type="button"
            data-testid="api-key-revoke"
            aria-label={`Revoke key ${apiKey.name}`}
            onClick={() => setConfirming(true)}
            className="inline-flex shrink-0 items-center gap-1 rounded px-1.5 py-0.5 text-xs text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
          >
            <Trash2 aria-hidden className="h-3.5 w-3.5" />
            Revoke
          </button>
        )}
        {!active && (
          <span className="shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-medium uppercase tracking-wide text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
            {apiKey.status}
          </span>
        )}
      </div>
      <div className="flex flex-wrap gap-1" aria-label="Scopes">
        {apiKey.scopes.map((s) => (
          <span
            key={s}
            className="rounded bg-sky-50 px-1.5 py-0.5 text-[11px] font-medium text-sky-800 dark:bg-sky-950/50 dark:text-sky-300"
          >
            {s}
          </span>
        ))}
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{when(apiKey).join(" · ")}</p>
      {active && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={toolsId} className="text-xs text-zinc-600 dark:text-zinc-400" title="What Claude is offered of Threadkeeper's own tools in the drop-in and OpenAI-compatible APIs">
            Threadkeeper tools
          </label>
          <select
            id={toolsId}
            data-testid="api-key-tools"
            value={choiceOf(apiKey.tools)}
            disabled={saving}
            onChange={(e) => void chooseTools(e.target.value)}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-1.5 py-0.5 text-xs focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:border-zinc-700 dark:bg-zinc-900 dark:focus:border-zinc-400 dark:focus:ring-sky-800"
          >
            {TOOL_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {confirming && (
        <div
          role="alertdialog"
          aria-label={`Revoke ${apiKey.name}?`}
          className="mt-1 flex flex-col gap-2 rounded-md bg-red-50 p-2 dark:bg-red-950/40"
        >
          <p className="text-xs text-red-800 dark:text-red-300">
            Revoke “{apiKey.name}”? Anything using it is refused from the next request on. This cannot be undone.
          </p>
          <div className="flex justify-end gap-2">
            <button
              type="button"
              data-testid="api-key-revoke-cancel"
              onClick={() => setConfirming(false)}
              disabled={busy}
              className="rounded-md px-2 py-1 text-xs text-zinc-700 hover:bg-white dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              Keep it
            </button>
            <button
              type="button"
              data-testid="api-key-revoke-confirm"
              onClick={() => void revoke()}
              disabled={busy}
              className="rounded-md bg-red-700 px-2 py-1 text-xs font-medium text-white hover:bg-red-800 disabled:opacity-50 dark:bg-red-600 dark:hover:bg-red-500"
            >
              {busy ? "Revoking…" : "Revoke key"}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
