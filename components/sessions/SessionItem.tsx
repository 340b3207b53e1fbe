"use client";
// One session in the list, with its forks under it and a menu to rename, pin, archive, export
// or delete it. Renaming happens in place: Enter saves, Escape gives the old title back.
import { useRef, useState } from "react";
import { Archive, ArchiveRestore, FileDown, FileJson, GitBranch, Pencil, Pin, PinOff, Trash2 } from "lucide-react";
import { downloadFrom, sessionExportUrl } from "@/lib/client/download";
import type { SessionNode } from "@/lib/client/session-groups";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { relativeTime } from "@/lib/client/format";
import { MenuButton, type MenuItem } from "@/components/ui/MenuButton";

const ICON = "h-4 w-4 shrink-0";

export function SessionItem({ node, sending, onOpen, fork = false }: { node: SessionNode; sending: boolean; onOpen(id: string): void; fork?: boolean }) {
  const s = node.session;
  const current = useSessionsStore((st) => st.currentId === s.id);
  const [renaming, setRenaming] = useState(false);
  const title = s.title || "Untitled session";
  const store = useSessionsStore.getState;

  const items: MenuItem[] = [
    { label: "Rename", testId: "session-rename", icon: <Pencil aria-hidden className={ICON} />, onSelect: () => setRenaming(true) },
    s.pinned
      ? { label: "Unpin", testId: "session-unpin", icon: <PinOff aria-hidden className={ICON} />, onSelect: () => void store().update(s.id, { pinned: false }) }
      : { label: "Pin", testId: "session-pin", icon: <Pin aria-hidden className={ICON} />, onSelect: () => void store().update(s.id, { pinned: true }) },
    s.archived
      ? { label: "Unarchive", testId: "session-unarchive", icon: <ArchiveRestore aria-hidden className={ICON} />, onSelect: () => void store().update(s.id, { archived: false }) }
      : { label: "Archive", testId: "session-archive", icon: <Archive aria-hidden className={ICON} />, onSelect: () => void store().archive(s.id) },
    { label: "Export as Markdown", testId: "session-export-md", icon: <FileDown aria-hidden className={ICON} />, onSelect: () => downloadFrom(sessionExportUrl(s.id, "md")) },
    { label: "Export as JSON", testId: "session-export-json", icon: <FileJson aria-hidden className={ICON} />, onSelect: () => downloadFrom(sessionExportUrl(s.id, "json")) },
    { label: "Delete", testId: "session-delete", danger: true, icon: <Trash2 aria-hidden className={ICON} />, onSelect: () => store().remove(s.id) },
  ];

  return (
    <li data-testid="session-node" data-session-id={s.id}>
      <div
        className={`group flex items-center rounded-md transition-colors ${
          current ? "bg-zinc-200/80 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        }`}
      >
        {renaming ? (
          <RenameField title={title} onDone={(next) => {
            setRenaming(false);
            if (next && next !== title) void store().update(s.id, { title: next });
          }} />
        ) : (
          <button
            type="button"
            data-testid="session-item"
            data-session-id={s.id}
            aria-current={current ? "page" : undefined}
            disabled={sending && !current}
            onClick={() => onOpen(s.id)}
            className="min-w-0 flex-1 rounded-md px-2 py-2 text-left disabled:opacity-60"
          >
            <span className="flex items-center gap-1.5 text-sm">
              {fork && <GitBranch aria-label="Fork" className="h-3.5 w-3.5 shrink-0 text-zinc-400" />}
              {s.pinned && <Pin aria-label="Pinned" className="h-3 w-3 shrink-0 text-zinc-400" />}
              <span className="truncate">{title}</span>
            </span>
            <span className="block text-[11px] text-zinc-600 dark:text-zinc-400">
              {s.message_count} message{s.message_count === 1 ? "" : "s"}
              {s.last_message_at || s.updated_at ? ` · ${relativeTime(s.last_message_at ?? s.updated_at)}` : ""}
            </span>
          </button>
        )}
        {!renaming && (
          <MenuButton
            label={`Options for ${title}`}
            testId="session-menu"
            items={items}
            // Always there on a touch screen and for the open session; on hover or focus otherwise.
            className={`shrink-0 pr-1 ${current ? "" : "md:opacity-0 md:focus-within:opacity-100 md:group-hover:opacity-100"}`}
          />
        )}
      </div>
      {node.forks.length > 0 && (
        <ul aria-label={`Forks of ${title}`} className="ml-3 space-y-0.5 border-l border-zinc-200 pl-1.5 dark:border-zinc-800">
          {node.forks.map((f) => (
            <SessionItem key={f.session.id} node={f} sending={sending} onOpen={onOpen} fork />
          ))}
        </ul>
      )}
    </li>
  );
}

function RenameField({ title, onDone }: { title: string; onDone(next: string | null): void }) {
  const [value, setValue] = useState(title);
  // Enter, then the blur of the field going away, must not save twice.
  const finished = useRef(false);
  const finish = (next: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(next);
  };
  return (
    <input
      data-testid="session-rename-input"
      aria-label="Session title"
      autoFocus
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onFocus={(e) => e.target.select()}
      onBlur={() => finish(value.trim() || null)}
      onKeyDown={(e) => {
        if (e.key === "Enter") finish(value.trim() || null);
        else if (e.key === "Escape") {
          e.nativeEvent.stopImmediatePropagation();
          finish(null);
        }
      }}
      className="m-1 min-w-0 flex-1 rounded border border-zinc-300 bg-white px-1.5 py-1.5 text-sm text-zinc-900 dark:border-zinc-600 dark:bg-zinc-950 dark:text-zinc-100"
    />
  );
}
