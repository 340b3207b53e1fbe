"use client";
// The files waiting to go with the next message, one chip each, above the message box.
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { useStatusStore } from "@/lib/client/status-store";
import { FileChipItem } from "@/components/chat/files/FileChipItem";

export function FileChips({ locked }: { locked: boolean }) {
  const sessionId = useConversationStore((s) => s.sessionId);
  const all = useAttachmentsStore((s) => s.chips);
  const capacity = useStatusStore((s) => s.status?.capacity_tokens ?? null);
  const chips = all.filter((c) => c.sessionId === sessionId);
  if (chips.length === 0) return null;
  return (
    <ul className="mb-2 flex flex-wrap gap-2" aria-label="Attached files" data-testid="file-chips">
      {chips.map((c) => (
        <FileChipItem key={c.key} chip={c} capacity={capacity} locked={locked} />
      ))}
    </ul>
  );
}
