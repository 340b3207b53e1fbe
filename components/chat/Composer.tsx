"use client";
// Where messages are typed. Enter sends, Shift+Enter adds a line. Typing "/" opens the
// slash-command menu (arrows to move, Enter or Tab to pick, Esc to close); a known
// command runs instead of being sent, and answers on a line above the input. Files come in by
// the paper clip, a drop on the chat or a paste, and wait as chips above the input.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { X } from "lucide-react";
import type { MessageJson } from "@/lib/contract";
import { matchCommands, parseCommandLine, type CommandContext, type ComposerCommand } from "@/lib/client/commands";
import { useConversationStore, type CommandFeedback } from "@/lib/client/conversation-store";
import { composeMessage, isLargePaste, pasteIsFiles, type PastedText } from "@/lib/client/paste";
import { outgoingFiles, sendBlockedReason } from "@/lib/client/attachments";
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import { useStatusStore } from "@/lib/client/status-store";
import { clearDraft, NEW_DRAFT, readLocal } from "@/lib/client/drafts";
import { useDraft } from "@/components/chat/useDraft";
import { PasteChips } from "@/components/chat/PasteChips";
import { SendButton } from "@/components/chat/SendButton";
import { NoKeyNotice } from "@/components/chat/NoKeyNotice";
import { AttachButton } from "@/components/chat/files/AttachButton";
import { FileChips } from "@/components/chat/files/FileChips";
import { useAttachFiles } from "@/components/chat/files/useAttachFiles";

const OFFLINE_PREFIX = "[Offline responder";

function lastReplyIsOffline(messages: MessageJson[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") return messages[i].text.trimStart().startsWith(OFFLINE_PREFIX);
  }
  return false;
}

/**
 * `sessionId`: the session this composer types into (null: a new chat). Workspace mounts one per
 * session, so each starts from that session's own draft.
 */
export function Composer({ sessionId: draftSession }: { sessionId: string | null }) {
  const [text, setText] = useState(() => readLocal(draftSession ?? NEW_DRAFT)?.text ?? "");
  // The text for which the menu was closed with Esc; typing anything else opens it again.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [highlight, setHighlight] = useState(0);
  // Locked until hydrated: text typed into the server-rendered box is wiped by hydration, and an
  // Enter pressed before it sends nothing (seen on a busy machine, where hydration takes a while).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Large pastes wait as chips and are sent after the typed text.
  const [pastes, setPastes] = useState<PastedText[]>(() => (readLocal(draftSession ?? NEW_DRAFT)?.pastes ?? []).map((p, id) => ({ id, text: p })));
  const nextPaste = useRef(pastes.length);
  const phase = useConversationStore((s) => s.phase);
  const compacting = useConversationStore((s) => s.compacting);
  const feedback = useConversationStore((s) => s.commandFeedback);
  const send = useConversationStore((s) => s.send);
  const offline = useConversationStore((s) => lastReplyIsOffline(s.messages));
  // Before the first message: where the empty chat says whether Claude has a key.
  const empty = useConversationStore((s) => s.messages.length === 0 && !s.loading && s.phase === "idle");
  const input = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const waitId = useId();
  const attach = useAttachFiles();
  const allChips = useAttachmentsStore((s) => s.chips);
  const menuId = useId();
  const busy = phase !== "idle" || compacting;
  const suggestions = matchCommands(text);
  const menuOpen = suggestions.length > 0 && dismissedFor !== text && !busy;
  const active = menuOpen ? Math.min(highlight, suggestions.length - 1) : -1;

  // A session opened is a session to type in; not on a touch screen, where focus would pop up
  // the keyboard over the conversation one came to read.
  const sessionId = useConversationStore((s) => s.sessionId);
  const chips = allChips.filter((c) => c.sessionId === sessionId);
  const waitReason = sendBlockedReason(chips);
  useDraft(draftSession, { text, pastes: pastes.map((p) => p.text), chips: chips.filter((c) => c.sessionId === draftSession), serverText: composeMessage(text, pastes) }, (d) => {
    setText(d.text);
    setPastes(d.pastes.map((p) => ({ id: nextPaste.current++, text: p })));
  });
  const hasFiles = chips.some((c) => c.status === "ready");
  useEffect(() => {
    if (hydrated && window.matchMedia("(pointer: fine)").matches && !document.querySelector("[aria-modal=true]")) input.current?.focus();
  }, [sessionId, hydrated]);

  // Focus comes back when the input unlocks (after a reply or a compaction).
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) input.current?.focus();
    wasBusy.current = busy;
  }, [busy]);

  function change(value: string) {
    setText(value);
    setHighlight(0);
    if (dismissedFor !== null && value !== dismissedFor) setDismissedFor(null);
  }

  function pick(command: ComposerCommand) {
    change(`/${command.name} `);
    input.current?.focus();
  }

  function context(): CommandContext {
    const store = useConversationStore.getState();
    return {
      compact: (request) => store.compact(request),
      feedback: (f: CommandFeedback | null) => store.setCommandFeedback(f),
      saveCheckpoint: (label) => store.saveCheckpoint(label),
    };
  }

  function submit() {
    const value = text.trim();
    if ((!value && pastes.length === 0 && !hasFiles) || busy || waitReason) return;
    const invoked = pastes.length === 0 && !hasFiles ? parseCommandLine(value) : null;
    if (invoked) {
      const outcome = invoked.command.run(invoked.args, context());
      if (!outcome.ok) {
        useConversationStore.getState().setCommandFeedback({ tone: "error", code: "bad_command", message: outcome.message });
        return;
      }
      change("");
      return;
    }
    change("");
    setPastes([]);
    clearDraft(draftSession ?? NEW_DRAFT);
    // The chips stay until the server accepts the message (a failed send leaves them to send again).
    const files = outgoingFiles(chips, useStatusStore.getState().status?.capacity_tokens ?? null);
    void send(composeMessage(value, pastes), files);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // While an input method is composing, Enter confirms the composition, not the message.
    if (e.nativeEvent.isComposing) return;
    if (menuOpen) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const n = suggestions.length;
        setHighlight((active + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissedFor(text);
        return;
      }
      if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey)) {
        const chosen = suggestions[active];
        // Enter on a command typed out in full runs it; otherwise it completes the name.
        if (!(e.key === "Enter" && text.trim().toLowerCase() === `/${chosen.name.toLowerCase()}`)) {
          e.preventDefault();
          pick(chosen);
          return;
        }
      }
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <form
      className="border-t border-zinc-200 dark:border-zinc-800 bg-white/90 dark:bg-zinc-900/90 px-4 py-3 backdrop-blur"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="relative mx-auto max-w-4xl">
        {menuOpen && (
          <CommandMenu id={menuId} commands={suggestions} active={active} onHover={setHighlight} onPick={pick} />
        )}
        {empty && <NoKeyNotice />}
        {feedback && <CommandFeedbackLine feedback={feedback} />}
        <FileChips />
        <PasteChips pastes={pastes} onRemove={(id) => setPastes((p) => p.filter((x) => x.id !== id))} />
        <label htmlFor={inputId} className="sr-only">
          Message (Enter sends, Shift+Enter adds a line)
        </label>
        <div className="flex items-end gap-1.5 rounded-xl border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-3 py-2 shadow-sm focus-within:border-zinc-400 dark:focus-within:border-zinc-600 focus-within:ring-2 focus-within:ring-sky-200 dark:focus-within:ring-sky-800">
          <AttachButton onFiles={(files) => void attach(files)} />
          <textarea
            id={inputId}
            ref={input}
            data-testid="composer-input"
            value={text}
            onChange={(e) => change(e.target.value)}
            onKeyDown={onKeyDown}
            onPaste={(e) => {
              const pasted = e.clipboardData.getData("text/plain");
              if (pasteIsFiles([...e.clipboardData.types], pasted, e.clipboardData.files.length)) {
                e.preventDefault();
                void attach([...e.clipboardData.files]);
                return;
              }
              if (!isLargePaste(pasted)) return;
              e.preventDefault();
              setPastes((p) => [...p, { id: nextPaste.current++, text: pasted }]);
            }}
            disabled={busy || !hydrated}
            rows={1}
            aria-controls={menuOpen ? menuId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={menuOpen ? `${menuId}-${active}` : undefined}
            placeholder={
              compacting
                ? "Condensing older turns…"
                : busy
                  ? "Claude is replying…"
                  : "Message Claude (/ for commands)"
            }
            className="max-h-48 min-h-[2.5rem] flex-1 resize-none bg-transparent py-1.5 text-sm text-zinc-900 dark:text-zinc-100 outline-none [field-sizing:content] placeholder:text-zinc-400 dark:placeholder:text-zinc-500 disabled:cursor-not-allowed"
          />
          <SendButton canSend={text.trim() !== "" || pastes.length > 0 || hasFiles} waitReason={waitReason} describedBy={waitReason ? waitId : undefined} />
        </div>
        {waitReason && (
          <p id={waitId} data-testid="send-wait-reason" className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
            {waitReason}…
          </p>
        )}
        {offline && (
          <p data-testid="offline-label" className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
            <span className="rounded bg-zinc-100 dark:bg-zinc-800 px-1.5 py-0.5 font-medium text-zinc-600 dark:text-zinc-400">offline responder</span> No API
            key is set, so a local responder answers; context features still work.
          </p>
        )}
      </div>
    </form>
  );
}

function CommandMenu({
  id,
  commands,
  active,
  onHover,
  onPick,
}: {
  id: string;
  commands: ComposerCommand[];
  active: number;
  onHover(index: number): void;
  onPick(command: ComposerCommand): void;
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label="Commands"
      data-testid="command-menu"
      className="absolute bottom-full left-0 z-10 mb-2 w-full max-w-2xl overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 text-sm shadow-lg"
    >
      {commands.map((c, i) => (
        <li
          key={c.name}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          data-testid="command-option"
          data-command={c.name}
          data-active={i === active}
          // mousedown, not click: the textarea keeps focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(c);
          }}
          // A menu that opens under a resting pointer must not move the highlight off the
          // first command, so only a real pointer movement counts: Chromium sends mousemove
          // with zero movement when the layout changes under the pointer.
          onMouseMove={(e) => {
            if (e.movementX === 0 && e.movementY === 0) return;
            if (i !== active) onHover(i);
          }}
          className={`flex cursor-pointer gap-2 px-3 py-2 ${i === active ? "bg-sky-50 dark:bg-sky-950/40" : "hover:bg-zinc-50 dark:hover:bg-zinc-800"}`}
        >
          <span className="font-mono text-zinc-900 dark:text-zinc-100">/{c.name}</span>
          {c.args && <span className="whitespace-nowrap font-mono text-zinc-400 dark:text-zinc-500">{c.args}</span>}
          <span className="min-w-0 truncate text-zinc-500 dark:text-zinc-400">{c.description}</span>
        </li>
      ))}
    </ul>
  );
}

function CommandFeedbackLine({ feedback }: { feedback: CommandFeedback }) {
  const dismiss = () => useConversationStore.getState().setCommandFeedback(null);
  const error = feedback.tone === "error";
  return (
    <div
      role={error ? "alert" : "status"}
      data-testid="command-feedback"
      data-code={feedback.code}
      data-tone={feedback.tone}
      className={`mb-2 flex items-start gap-2 rounded-md px-3 py-1.5 text-xs ${
        error ? "bg-red-50 dark:bg-red-950/40 text-red-800 dark:text-red-300" : "bg-amber-50 dark:bg-amber-950/40 text-amber-900 dark:text-amber-200"
      }`}
    >
      <span className="min-w-0 flex-1 break-words">{feedback.message}</span>
      <button type="button" onClick={dismiss} aria-label="Dismiss" className="shrink-0 rounded px-1 opacity-70 hover:opacity-100">
        <X aria-hidden className="h-3.5 w-3.5" />
      </button>
    </div>
  );
}
