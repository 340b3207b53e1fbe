"use client";
// What Claude is told before every conversation: the account's custom instructions (copied into
// each new chat) and, in a session's settings, that session's own system prompt and the
// instructions it carries. Both are counted as "System" on the token bar and cached.
import { useEffect, useId, useState, type FormEvent } from "react";
import { MAX_INSTRUCTIONS_CHARS, MAX_SYSTEM_PROMPT_CHARS } from "@/lib/contract/preferences";
import { describeError } from "@/lib/client/api/http";
import * as prefsApi from "@/lib/client/api/preferences";
import { compactTokens } from "@/lib/client/format";
import { useStatusStore } from "@/lib/client/status-store";

const FIELD =
  "resize-y rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-sky-200 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:focus:border-zinc-400 dark:focus:ring-sky-800";
const BUTTON =
  "rounded-md border border-zinc-300 px-3 py-1 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800";

type Phase = { kind: "loading" } | { kind: "ready" } | { kind: "saving" } | { kind: "saved"; note: string } | { kind: "error"; message: string };

function Outcome({ phase, testId }: { phase: Phase; testId: string }) {
  if (phase.kind === "error") {
    return (
      <p role="alert" data-testid={`${testId}-error`} className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-300">
        {phase.message}
      </p>
    );
  }
  if (phase.kind !== "saved") return null;
  return (
    <p role="status" data-testid={`${testId}-status`} className="text-xs text-emerald-700 dark:text-emerald-400">
      {phase.note}
    </p>
  );
}

export function CustomInstructionsSection() {
  const [text, setText] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const id = useId();

  useEffect(() => {
    let live = true;
    prefsApi
      .getInstructions()
      .then((r) => {
        if (!live) return;
        setText(r.instructions);
        setPhase({ kind: "ready" });
      })
      .catch((err: unknown) => {
        if (live) setPhase({ kind: "error", message: `Could not load your instructions: ${describeError(err).message}` });
      });
    return () => {
      live = false;
    };
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    setPhase({ kind: "saving" });
    try {
      const saved = await prefsApi.putInstructions(text);
      setText(saved.instructions);
      setPhase({ kind: "saved", note: saved.instructions ? "Saved. Chats you start from now on follow them." : "Removed. New chats start without instructions." });
    } catch (err) {
      setPhase({ kind: "error", message: `Not saved: ${describeError(err).message}` });
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800" data-testid="custom-instructions">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Custom instructions
      </h3>
      <form onSubmit={save} className="flex flex-col gap-2">
        <label htmlFor={id} className="text-xs text-zinc-600 dark:text-zinc-400">
          What should Claude know about you, and how should it answer? Each new chat starts with these; a chat under way keeps its own (its settings can change them).
        </label>
        <textarea
          id={id}
          data-testid="custom-instructions-input"
          value={text}
          rows={5}
          maxLength={MAX_INSTRUCTIONS_CHARS}
          disabled={phase.kind === "loading"}
          onChange={(e) => setText(e.target.value)}
          placeholder="e.g. I'm a backend developer working mostly in Go. Answer concisely, show code first, and use metric units."
          className={FIELD}
        />
        <Outcome phase={phase} testId="custom-instructions" />
        <div className="flex justify-end">
          <button type="submit" data-testid="custom-instructions-save" disabled={phase.kind === "loading" || phase.kind === "saving"} className={BUTTON}>
            {phase.kind === "saving" ? "Saving…" : "Save instructions"}
          </button>
        </div>
      </form>
    </section>
  );
}

export function SystemPromptSection({ sessionId }: { sessionId: string }) {
  const [prompt, setPrompt] = useState("");
  const [instructions, setInstructions] = useState("");
  const [tokens, setTokens] = useState<number | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const id = useId();

  useEffect(() => {
    let live = true;
    prefsApi
      .getSystemPrompt(sessionId)
      .then((r) => {
        if (!live) return;
        setPrompt(r.system_prompt);
        setInstructions(r.instructions);
        setTokens(r.tokens);
        setPhase({ kind: "ready" });
      })
      .catch((err: unknown) => {
        if (live) setPhase({ kind: "error", message: `Could not load the system prompt: ${describeError(err).message}` });
      });
    return () => {
      live = false;
    };
  }, [sessionId]);

  async function save(e: FormEvent) {
    e.preventDefault();
    setPhase({ kind: "saving" });
    try {
      const saved = await prefsApi.putSystemPrompt(sessionId, { system_prompt: prompt, instructions });
      setPrompt(saved.system_prompt);
      setInstructions(saved.instructions);
      setTokens(saved.tokens);
      setPhase({ kind: "saved", note: "Saved. Claude gets it with your next message." });
      // The bar counts it at once.
      void useStatusStore.getState().load(sessionId);
    } catch (err) {
      setPhase({ kind: "error", message: `Not saved: ${describeError(err).message}` });
    }
  }

  const disabled = phase.kind === "loading";
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800" data-testid="system-prompt">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        System prompt
      </h3>
      <form onSubmit={save} className="flex flex-col gap-2">
        <label htmlFor={`${id}-prompt`} className="text-xs text-zinc-600 dark:text-zinc-400">
          What Claude is told before this conversation. Never condensed; counted as System on the token bar.
        </label>
        <textarea id={`${id}-prompt`} data-testid="system-prompt-input" value={prompt} rows={5} maxLength={MAX_SYSTEM_PROMPT_CHARS} disabled={disabled} onChange={(e) => setPrompt(e.target.value)} className={FIELD} />
        <label htmlFor={`${id}-instructions`} className="text-xs text-zinc-600 dark:text-zinc-400">
          Custom instructions for this chat (copied from your account&apos;s when it began)
        </label>
        <textarea
          id={`${id}-instructions`}
          data-testid="session-instructions-input"
          value={instructions}
          rows={3}
          maxLength={MAX_INSTRUCTIONS_CHARS}
          disabled={disabled}
          onChange={(e) => setInstructions(e.target.value)}
          placeholder="None"
          className={FIELD}
        />
        <Outcome phase={phase} testId="system-prompt" />
        <div className="flex items-center justify-between gap-2">
          <span className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400" data-testid="system-prompt-tokens">
            {tokens !== null ? `~${compactTokens(tokens)} tokens` : ""}
          </span>
          <button type="submit" data-testid="system-prompt-save" disabled={disabled || phase.kind === "saving"} className={BUTTON}>
            {phase.kind === "saving" ? "Saving…" : "Save system prompt"}
          </button>
        </div>
      </form>
    </section>
  );
}
