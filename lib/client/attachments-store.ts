// The files waiting in the composer (lib/client/attachments.ts holds their model). Each file
// uploads the moment it is picked; a PDF still being read is polled until its figures are known;
// a chip removed before its message is sent deletes its file. Chips belong to the session they
// were uploaded to, so switching sessions and back finds them where they were.
import { create } from "zustand";
import { describeError } from "@/lib/client/api/http";
import * as filesApi from "@/lib/client/api/files";
import { chipsReducer, refusal, type ChipAction, type FileChip } from "@/lib/client/attachments";
import { fileKindOf } from "@/lib/contract/file-types";
import type { FileInfo } from "@/lib/contract/files";

/** How often, and how many times, a session's files are asked for while a PDF is being read. */
const POLL_MS = 1_000;
const POLL_TRIES = 120;

interface AttachmentsState {
  chips: FileChip[];
  /**
   * Adds picked, dropped or pasted files to a session: each accepted one uploads at once; the
   * refused are named in the answer (null when all were taken), for the composer to show.
   */
  add(sessionId: string, files: readonly File[]): string | null;
  remove(key: string): void;
  toggleReference(key: string): void;
  /** The message carrying these files was accepted: their chips leave, their files stay. */
  sent(sessionId: string, fileIds: readonly string[]): void;
  /** A draft's files, already uploaded, come back as ready chips (those not shown already). */
  restore(sessionId: string, files: readonly { file: FileInfo; byReference: boolean }[]): void;
}

let nextKey = 0;
/** Uploads in flight, by chip key: removing the chip cancels its upload. */
const uploads = new Map<string, AbortController>();
/** Sessions whose files are being polled. */
const polling = new Set<string>();

export const useAttachmentsStore = create<AttachmentsState>()((set, get) => {
  const dispatch = (action: ChipAction) => set((s) => ({ chips: chipsReducer(s.chips, action) }));
  const chip = (key: string) => get().chips.find((c) => c.key === key);
  const pending = (sessionId: string) => get().chips.some((c) => c.sessionId === sessionId && c.file?.extraction === "pending");

  function release(c: FileChip): void {
    if (c.previewUrl) URL.revokeObjectURL(c.previewUrl);
    uploads.get(c.key)?.abort();
    uploads.delete(c.key);
  }

  /** Asks for the session's files each second while one of its chips is still being read. */
  async function poll(sessionId: string): Promise<void> {
    if (polling.has(sessionId)) return;
    polling.add(sessionId);
    try {
      for (let i = 0; i < POLL_TRIES && pending(sessionId); i++) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        try {
          dispatch({ type: "refreshed", files: await filesApi.sessionFiles(sessionId) });
        } catch {
          // A missed look is made up by the next one; the chip says "reading…" meanwhile.
        }
      }
    } finally {
      polling.delete(sessionId);
    }
  }

  async function upload(key: string, sessionId: string, file: File): Promise<void> {
    const controller = new AbortController();
    uploads.set(key, controller);
    try {
      const stored = await filesApi.uploadFile(sessionId, file, controller.signal);
      if (!chip(key)) {
        // Removed while it uploaded (and the abort came too late): the file is not wanted.
        void filesApi.deleteFile(stored.id).catch(() => undefined);
        return;
      }
      dispatch({ type: "uploaded", key, file: stored });
      if (stored.extraction === "pending") void poll(sessionId);
    } catch (err) {
      if (chip(key)) dispatch({ type: "failed", key, message: describeError(err).message });
    } finally {
      uploads.delete(key);
    }
  }

  return {
    chips: [],

    add(sessionId, files) {
      const refused: string[] = [];
      let count = get().chips.filter((c) => c.sessionId === sessionId).length;
      for (const file of files) {
        const problem = refusal(file.name, file.type, file.size, count);
        const kind = fileKindOf(file.name, file.type);
        if (problem || !kind) {
          refused.push(problem ?? file.name);
          continue;
        }
        count++;
        const key = `f${nextKey++}`;
        const previewUrl = kind === "image" ? URL.createObjectURL(file) : null;
        dispatch({ type: "added", chip: { key, sessionId, name: file.name, size: file.size, kind, previewUrl, status: "uploading", file: null, error: null, byReference: false } });
        void upload(key, sessionId, file);
      }
      return refused.length > 0 ? refused.join(" ") : null;
    },

    remove(key) {
      const c = chip(key);
      if (!c) return;
      release(c);
      dispatch({ type: "removed", key });
      // Never sent, so nothing else holds it: it would only take space.
      if (c.file) void filesApi.deleteFile(c.file.id).catch(() => undefined);
    },

    toggleReference(key) {
      dispatch({ type: "toggled_reference", key });
    },

    restore(sessionId, files) {
      const shown = new Set(get().chips.flatMap((c) => (c.sessionId === sessionId && c.file ? [c.file.id] : [])));
      for (const { file, byReference } of files) {
        if (shown.has(file.id)) continue;
        const chip: FileChip = { key: `f${nextKey++}`, sessionId, name: file.name, size: file.size, kind: file.kind, previewUrl: file.kind === "image" ? filesApi.fileHref(file.id) : null, status: "ready", file, error: null, byReference };
        dispatch({ type: "added", chip });
      }
      if (files.some((f) => f.file.extraction === "pending")) void poll(sessionId);
    },

    sent(sessionId, fileIds) {
      const ids = new Set(fileIds);
      for (const c of get().chips) if (c.sessionId === sessionId && c.file && ids.has(c.file.id)) release(c);
      dispatch({ type: "sent", sessionId, fileIds });
    },
  };
});
