"use client";
// One way in for files, whether picked, dropped or pasted: the session is made if the
// conversation is new (an upload needs one), the files go to the chips, and a refusal is said
// above the composer, where the user is looking.
import { useCallback } from "react";
import { describeError } from "@/lib/client/api/http";
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { useStatusStore } from "@/lib/client/status-store";

export function useAttachFiles(): (files: readonly File[]) => Promise<void> {
  return useCallback(async (files: readonly File[]) => {
    if (files.length === 0) return;
    const conversation = useConversationStore.getState();
    let sessionId: string;
    try {
      sessionId = await conversation.ensureSession();
    } catch (err) {
      conversation.setCommandFeedback({ tone: "error", code: "no_session", message: `Files not attached: ${describeError(err).message}` });
      return;
    }
    const refused = useAttachmentsStore.getState().add(sessionId, files);
    conversation.setCommandFeedback(refused ? { tone: "error", code: "file_refused", message: refused } : null);
    // The chips weigh files against the window: a new session has no status yet.
    if (!useStatusStore.getState().status) void useStatusStore.getState().load(sessionId);
  }, []);
}
