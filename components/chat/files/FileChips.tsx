"use client";
// The files waiting to go with the next message, one chip each, above the message box.
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { useStatusStore } from "@/lib/client/status-store";
import { FileChipItem } from "@/components/chat/files/FileChipItem";

export function FileChips() {
  const sessionId = useConversationStore((s) => s.sessionId);
  // Files on their way with a message cannot be removed; any other chip can, even while Claude replies.
  const sending = useConversationStore((s) => s.pendingFiles);
  const all = useAttachmentsStore((s) => s.chips);
  const capacity = useStatusStore((s) => s.status?.capacity_tokens ?? null);
  const chips = all.filter((c) => c.sessionId === sessionId);
  if (chips.length === 0) return null;
  return (
    // One row that scrolls sideways on a phone, so a handful of files does not push the conversation off the screen.
    <ul className="-mx-1 mb-2 flex items-start gap-2 overflow-x-auto px-1 pb-1 sm:flex-wrap sm:overflow-visible sm:pb-0" aria-label="Attached files" data-testid="file-chips">
      {chips.map((c) => (
        <FileChipItem key={c.key} chip={c} capacity={capacity} locked={c.file !== null && sending.some((f) => f.id === c.file?.id)} />
      ))}
    </ul>
  );
}
