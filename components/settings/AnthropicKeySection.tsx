"use client";
// Local mode: the Anthropic key Claude is called with. Typed here, it is kept in the data folder
// (readable by its owner only) and never shown again: the server answers only where the key in
// use comes from and its last four characters. ANTHROPIC_API_KEY, when set, wins. Hidden in SaaS
// mode, where the operator's key serves everyone.
import { useEffect, useId, useState, type FormEvent } from "react";
import { ANTHROPIC_KEY_PATTERN } from "@/lib/contract/preferences";
import { describeError } from "@/lib/client/api/http";
import { useKeyStore } from "@/lib/client/key-store";

const BUTTON =
  "rounded-md border border-zinc-300 px-3 py-1 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800";

export function AnthropicKeySection() {
  const status = useKeyStore((s) => s.status);
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    void useKeyStore.getState().load();
  }, []);

  if (!status?.can_set) return null;

  async function act(what: () => Promise<void>, done: string) {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      await what();
      setKey("");
      setNote(done);
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setBusy(false);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    if (!ANTHROPIC_KEY_PATTERN.test(key.trim())) {
      setError(key.trim() ? "That is not an Anthropic key: one starts with sk-ant-. Copy it again from console.anthropic.com." : "Paste your Anthropic key (it starts with sk-ant-).");
      return;
    }
    void act(() => useKeyStore.getState().save(key.trim()), "Saved. Claude answers your next message.");
  }

  const ending = status.last4 ? ` ending in ${status.last4}` : "";
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800" data-testid="anthropic-key">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Anthropic key
      </h3>
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="anthropic-key-status" data-source={status.source}>
        {status.source === "environment"
          ? `Claude is called with the key from the ANTHROPIC_API_KEY environment variable${ending}; to use another, change it and restart Threadkeeper.`
          : status.source === "app"
            ? `A key${ending} is saved on this computer, readable only by the account running Threadkeeper.`
            : "No key is set, so an offline responder answers. Get a key at console.anthropic.com; it is kept on this computer and never shown again."}
      </p>
      {/* The environment's key wins: a key saved here would never be used. */}
      {status.source !== "environment" && (
        <form onSubmit={save} noValidate className="flex flex-col gap-2">
          <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
            {status.source === "app" ? "Replace the key" : "Your key"}
          </label>
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            data-testid="anthropic-key-input"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="sk-ant-…"
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono text-sm text-zinc-900 focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:focus:border-zinc-400 dark:focus:ring-sky-800"
          />
          {error && (
            <p role="alert" data-testid="anthropic-key-error" className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-300">
              {error}
            </p>
          )}
          {note && (
            <p role="status" data-testid="anthropic-key-note" className="text-xs text-emerald-700 dark:text-emerald-400">
              {note}
            </p>
          )}
          <div className="flex justify-end gap-2">
            {status.source === "app" && (
              <button type="button" data-testid="anthropic-key-remove" disabled={busy} onClick={() => void act(() => useKeyStore.getState().remove(), "Removed.")} className={BUTTON}>
                Remove key
              </button>
            )}
            <button type="submit" data-testid="anthropic-key-save" disabled={busy} className={BUTTON}>
              {busy ? "Saving…" : "Save key"}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
