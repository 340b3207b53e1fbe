"use client";
// The user's API keys, in the settings panel: make one (name, scopes, optional expiry) and copy
// its secret the one time it is shown; see each key's prefix, scopes and use; revoke one.
// Keys belong to the user, not to the open session.
import { useEffect, useId, useState, type FormEvent } from "react";
import { KeyRound } from "lucide-react";
import type { ApiKeyJson, ApiTool, Scope } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as keysApi from "@/lib/client/api/keys";
import { ApiKeyItem } from "./ApiKeyItem";
import { NewKeySecret } from "./NewKeySecret";

const SCOPE_OPTIONS: { scope: Scope; label: string; hint: string }[] = [
  { scope: "read", label: "Read", hint: "GET requests: sessions, messages, status" },
  { scope: "write", label: "Write", hint: "everything that changes data, sends included" },
  { scope: "admin", label: "Admin", hint: "keys and settings; includes read and write" },
];

const EXPIRY_OPTIONS = [
  { days: 0, label: "Never" },
  { days: 30, label: "In 30 days" },
  { days: 90, label: "In 90 days" },
  { days: 365, label: "In a year" },
];

const field =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:border-zinc-700 dark:bg-zinc-900 dark:focus:border-zinc-400 dark:focus:ring-sky-800";

export function ApiKeysSection() {
  const [keys, setKeys] = useState<ApiKeyJson[] | null>(null);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read", "write"]);
  const [expiryDays, setExpiryDays] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const ids = useId();

  useEffect(() => {
    let live = true;
    keysApi
      .listKeys()
      .then((k) => live && setKeys(k))
      .catch((err: unknown) => live && setError(describeError(err).message));
    return () => {
      live = false;
    };
  }, []);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError("Give the key a name, e.g. the integration that will use it.");
    if (scopes.length === 0) return setError("Pick at least one scope.");
    setBusy(true);
    setError(null);
    try {
      const expires = expiryDays ? new Date(Date.now() + expiryDays * 86_400_000).toISOString() : null;
      const res = await keysApi.createKey({ name: name.trim(), scopes, expires_at: expires });
      setCreated({ name: res.key.name, secret: res.secret });
      setKeys((k) => [res.key, ...(k ?? [])]);
      setName("");
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(key: ApiKeyJson) {
    setError(null);
    try {
      await keysApi.revokeKey(key.id);
      setKeys(await keysApi.listKeys());
    } catch (err) {
      setError(describeError(err).message);
    }
  }

  async function setTools(key: ApiKeyJson, tools: ApiTool[] | null) {
    setError(null);
    try {
      const updated = await keysApi.setKeyTools(key.id, tools);
      setKeys((k) => (k ?? []).map((x) => (x.id === updated.id ? updated : x)));
    } catch (err) {
      setError(describeError(err).message);
    }
  }

  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const current = (keys ?? []).filter((k) => k.status !== "revoked");
  const revoked = (keys ?? []).filter((k) => k.status === "revoked");

  return (
    <section
      data-testid="api-keys-section"
      aria-labelledby={`${ids}-title`}
      className="flex flex-col gap-3 border-t border-zinc-200 pt-4 dark:border-zinc-800"
    >
      <h3 id={`${ids}-title`} className="flex items-center gap-1.5 text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        <KeyRound aria-hidden className="h-4 w-4" />
        API keys
      </h3>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Scripts and integrations use the REST API as you with <code className="font-mono">Authorization: Bearer tk_live_…</code>,
        limited to the key&apos;s scopes.
      </p>
      {created && <NewKeySecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />}
      {error && (
        <p role="alert" data-testid="api-keys-error" className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-300">
          {error}
        </p>
      )}
      {keys === null && !error && <p className="text-xs text-zinc-500 dark:text-zinc-400">Loading keys…</p>}
      {keys !== null && current.length === 0 && <p className="text-xs text-zinc-500 dark:text-zinc-400">No keys yet.</p>}
      {current.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="api-key-list">
          {current.map((k) => (
            <ApiKeyItem key={k.id} apiKey={k} onRevoke={revoke} onTools={setTools} />
          ))}
        </ul>
      )}
      {revoked.length > 0 && (
        <details className="text-xs text-zinc-500 dark:text-zinc-400">
          <summary className="cursor-pointer select-none">Revoked ({revoked.length})</summary>
          <ul className="mt-2 flex flex-col gap-2" data-testid="api-key-revoked-list">
            {revoked.map((k) => (
              <ApiKeyItem key={k.id} apiKey={k} onRevoke={revoke} onTools={setTools} />
            ))}
          </ul>
        </details>
      )}
      <form onSubmit={create} noValidate className="flex flex-col gap-2 rounded-md bg-zinc-50 p-3 dark:bg-zinc-800/40">
        <p className="text-xs font-medium text-zinc-800 dark:text-zinc-200">New key</p>
        <label htmlFor={`${ids}-name`} className="sr-only">
          Key name
        </label>
        <input
          id={`${ids}-name`}
          data-testid="api-key-name"
          value={name}
          maxLength={100}
          placeholder="Name, e.g. CI deploy bot"
          onChange={(e) => setName(e.target.value)}
          className={field}
        />
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">Scopes</legend>
          {SCOPE_OPTIONS.map((o) => (
            <label key={o.scope} className="flex items-start gap-2 text-xs text-zinc-800 dark:text-zinc-200">
              <input
                type="checkbox"
                data-testid={`api-key-scope-${o.scope}`}
                checked={scopes.includes(o.scope)}
                onChange={(e) => toggle(o.scope, e.target.checked)}
                className="mt-0.5 h-3.5 w-3.5 accent-zinc-900 dark:accent-zinc-100"
              />
              <span>
                <span className="font-medium">{o.label}</span>
                <span className="text-zinc-500 dark:text-zinc-400"> — {o.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex items-center gap-2">
          <label htmlFor={`${ids}-expiry`} className="text-xs text-zinc-600 dark:text-zinc-400">
            Expires
          </label>
          <select
            id={`${ids}-expiry`}
            data-testid="api-key-expiry"
            value={expiryDays}
            onChange={(e) => setExpiryDays(Number(e.target.value))}
            className={`${field} flex-1 py-1 text-xs`}
          >
            {EXPIRY_OPTIONS.map((o) => (
              <option key={o.days} value={o.days}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex justify-end">
          <button
            type="submit"
            data-testid="api-key-create"
            disabled={busy}
            className="inline-flex items-center gap-1 rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white hover:bg-zinc-700 disabled:bg-zinc-300 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500"
          >
            {busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
    </section>
  );
}
