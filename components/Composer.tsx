"use client";
// Where messages are typed. Enter sends, Shift+Enter adds a line; slash commands are
// offered from lib/client/commands as soon as any exist.
import { useId, useRef, useState, type KeyboardEvent } from "react";
import type { MessageJson } from "@/lib/api/types";
import { matchCommands, type ComposerCommand } from "@/lib/client/commands";
import { useConversationStore } from "@/lib/client/conversation-store";

const OFFLINE_PREFIX = "[Offline responder";

function lastReplyIsOffline(messages: MessageJson[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") return messages[i].text.trimStart().startsWith(OFFLINE_PREFIX);
  }
  return false;
}

export function Composer() {
  const [text, setText] = useState("");
  const phase = useConversationStore((s) => s.phase);
  const send = useConversationStore((s) => s.send);
  const offline = useConversationStore((s) => lastReplyIsOffline(s.messages));
  const input = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const busy = phase !== "idle";
  const suggestions = matchCommands(text);

  function submit() {
    const value = text.trim();
    if (!value || busy) return;
    setText("");
    void send(value).finally(() => input.current?.focus());
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // While an input method is composing, Enter confirms the composition, not the message.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <form
      className="border-t border-zinc-200 bg-white/90 px-4 py-3 backdrop-blur"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="relative mx-auto max-w-4xl">
        {suggestions.length > 0 && (
          <CommandSuggestions commands={suggestions} onPick={(c) => setText(`/${c.name} `)} />
        )}
        <label htmlFor={inputId} className="sr-only">
          Message
        </label>
        <div className="flex items-end gap-2 rounded-xl border border-zinc-300 bg-white px-3 py-2 shadow-sm focus-within:border-zinc-400 focus-within:ring-2 focus-within:ring-sky-200">
          <textarea
            id={inputId}
            ref={input}
            data-testid="composer-input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={busy}
            rows={1}
            placeholder={busy ? "Claude is replying…" : "Message Claude (Enter to send, Shift+Enter for a new line)"}
            className="max-h-48 min-h-[2.5rem] flex-1 resize-none bg-transparent py-1.5 text-sm text-zinc-900 outline-none [field-sizing:content] placeholder:text-zinc-400 disabled:cursor-not-allowed"
          />
          <button
            type="submit"
            data-testid="send-button"
            disabled={busy || text.trim() === ""}
            className="rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white hover:bg-zinc-700 disabled:cursor-not-allowed disabled:bg-zinc-300"
          >
            {busy ? "Sending…" : "Send"}
          </button>
        </div>
        {offline && (
          <p data-testid="offline-label" className="mt-1.5 text-xs text-zinc-500">
            <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-medium text-zinc-600">offline responder</span> No API
            key is set, so a local responder answers; context features still work.
          </p>
        )}
      </div>
    </form>
  );
}

function CommandSuggestions({
  commands,
  onPick,
}: {
  commands: ComposerCommand[];
  onPick(command: ComposerCommand): void;
}) {
  return (
    <ul
      role="listbox"
      aria-label="Commands"
      className="absolute bottom-full left-0 mb-2 w-full max-w-sm overflow-hidden rounded-lg border border-zinc-200 bg-white text-sm shadow-lg"
    >
      {commands.map((c) => (
        <li key={c.name} role="option" aria-selected={false}>
          <button type="button" onClick={() => onPick(c)} className="flex w-full gap-2 px-3 py-2 text-left hover:bg-zinc-50">
            <span className="font-mono text-zinc-900">/{c.name}</span>
            {c.args && <span className="font-mono text-zinc-400">{c.args}</span>}
            <span className="truncate text-zinc-500">{c.description}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
