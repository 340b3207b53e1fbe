"use client";
// The composer's draft for one session (lib/client/drafts.ts): read from this browser when the
// composer opens on it, replaced by the server's copy if that was saved later (another device),
// its uploaded files brought back as chips, and saved again at every change. The composer is
// mounted once per session (Workspace keys it), so text typed in one chat never reaches another.
import { useEffect, useRef, useState } from "react";
import type { DraftJson } from "@/lib/contract";
import * as filesApi from "@/lib/client/api/files";
import * as prefsApi from "@/lib/client/api/preferences";
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import type { FileChip } from "@/lib/client/attachments";
import { flushAllDrafts, flushDraft, NEW_DRAFT, newerOf, readLocal, saveDraft, type LocalDraft } from "@/lib/client/drafts";

interface DraftState {
  text: string;
  pastes: string[];
}

const signature = (text: string, pastes: readonly string[], attachments: DraftJson["attachments"]) => JSON.stringify([text, pastes, attachments]);

/** The ready chips as a draft's attachments. */
function attachmentsOf(chips: readonly FileChip[]): DraftJson["attachments"] {
  return chips.flatMap((c) => (c.status === "ready" && c.file ? [{ id: c.file.id, by_reference: c.byReference }] : []));
}

async function restoreFiles(sessionId: string, attachments: DraftJson["attachments"]): Promise<void> {
  const shown = new Set(useAttachmentsStore.getState().chips.flatMap((c) => (c.sessionId === sessionId && c.file ? [c.file.id] : [])));
  const missing = attachments.filter((a) => !shown.has(a.id));
  if (missing.length === 0) return;
  const files = new Map((await filesApi.sessionFiles(sessionId)).map((f) => [f.id, f]));
  useAttachmentsStore.getState().restore(
    sessionId,
    missing.flatMap((a) => {
      const file = files.get(a.id);
      return file ? [{ file, byReference: a.by_reference }] : [];
    }),
  );
}

/**
 * The draft this composer starts from, and a saver to call with every change. `apply` receives
 * the server's copy when it is newer and nothing was typed here since the composer opened.
 */
export function useDraft(
  sessionId: string | null,
  current: { text: string; pastes: readonly string[]; chips: readonly FileChip[]; serverText: string },
  apply: (d: DraftState) => void,
): DraftState {
  const key = sessionId ?? NEW_DRAFT;
  const [initial] = useState<LocalDraft | null>(() => readLocal(key));
  // Until the draft's files are chips again, the draft keeps the files it had.
  const [restoring, setRestoring] = useState<DraftJson["attachments"] | null>(() => (initial && initial.attachments.length > 0 ? initial.attachments : null));
  const last = useRef(signature(initial?.text ?? "", initial?.pastes ?? [], initial?.attachments ?? []));
  const typed = useRef(false);
  const applyRef = useRef(apply);
  applyRef.current = apply;

  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    void (async () => {
      let chosen = initial;
      try {
        const server = await prefsApi.getDraft(sessionId);
        chosen = newerOf(initial, server);
        if (live && chosen !== initial && chosen && !typed.current) {
          applyRef.current({ text: chosen.text, pastes: chosen.pastes });
          setRestoring(chosen.attachments.length > 0 ? chosen.attachments : null);
        }
      } catch {
        // The server is unreachable: this browser's copy stands.
      }
      try {
        if (live && chosen && chosen.attachments.length > 0) await restoreFiles(sessionId, chosen.attachments);
      } catch {
        // The files cannot be listed now; the text is back, the chips are not.
      } finally {
        if (live) setRestoring(null);
      }
    })();
    return () => {
      live = false;
      // Leaving the session: its last words reach the server now, not after the pause.
      flushDraft(key);
    };
  }, [key, sessionId, initial]);

  useEffect(() => {
    // A reload or a closed tab: what waits for the pause is sent on the way out.
    window.addEventListener("pagehide", flushAllDrafts);
    return () => window.removeEventListener("pagehide", flushAllDrafts);
  }, []);

  const attachments = restoring ?? attachmentsOf(current.chips);
  const sig = signature(current.text, current.pastes, attachments);
  useEffect(() => {
    if (sig === last.current) return;
    last.current = sig;
    typed.current = true;
    saveDraft(key, { text: current.text, pastes: [...current.pastes], attachments }, current.serverText);
    // The signature stands for everything else it reads.
  }, [sig, key]);

  return { text: initial?.text ?? "", pastes: initial?.pastes ?? [] };
}
