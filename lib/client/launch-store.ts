// What greets the user when the app opens without a session: the crash-recovery prompt
// when a reply was cut off, otherwise the new conversation's empty state with the few most
// recent sessions to pick up (never a dialog in the way). The picker, with search, opens
// from the sidebar or the empty state. Projects live here too: the picker filters by them and the header
// assigns the open session to one.
import { create } from "zustand";
import type { ProjectJson, RecoveryJson, SessionSummaryJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as projectsApi from "@/lib/client/api/projects";
import * as sessionsApi from "@/lib/client/api/sessions";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { useSessionsStore } from "@/lib/client/sessions-store";

export const PICKER_LIMIT = 20;
const RECENT_LIMIT = 4;

export interface PickerFilter {
  q: string;
  projectId: string;
  from: string;
  to: string;
  limit: number;
}

interface LaunchState {
  recovery: RecoveryJson | null;
  recoveryBusy: boolean;
  recoveryError: string | null;

  /** The most recent sessions, offered by the empty state; null until loaded. */
  recent: SessionSummaryJson[] | null;

  pickerOpen: boolean;
  filter: PickerFilter;
  rows: SessionSummaryJson[];
  rowsLoading: boolean;
  rowsError: string | null;

  projects: ProjectJson[];
  projectError: string | null;

  /** On launch without a session in the URL: recovery first, the recent sessions for the empty state. */
  start(): Promise<void>;
  loadRecent(): Promise<void>;
  resumeRecovery(): Promise<void>;
  browseRecovery(): Promise<void>;
  dismissRecovery(): Promise<void>;

  openPicker(): void;
  closePicker(): void;
  setFilter(patch: Partial<PickerFilter>): void;
  loadRows(): Promise<void>;
  /** Marks the session resumed and opens it (optionally with the checkpoint panel). */
  openSession(id: string, opts?: { browse?: boolean; resume?: boolean }): Promise<void>;

  loadProjects(): Promise<void>;
  createProject(name: string): Promise<ProjectJson | null>;
  renameProject(id: string, name: string): Promise<void>;
  deleteProject(id: string): Promise<void>;
  assignProject(sessionId: string, projectId: string | null): Promise<void>;
}

const EMPTY_FILTER: PickerFilter = { q: "", projectId: "", from: "", to: "", limit: PICKER_LIMIT };

/** A date input's day as the start (or end) of that day, in the browser's zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T${end ? "23:59:59.999" : "00:00:00"}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export const useLaunchStore = create<LaunchState>()((set, get) => {
  let rowsGeneration = 0;

  async function openAndRetry(id: string): Promise<void> {
    const conversation = useConversationStore.getState();
    // Open (and load) before selecting, so the retry sees the cut-off message.
    await conversation.open(id);
    useSessionsStore.getState().select(id);
    await useConversationStore.getState().retry();
  }

  return {
    recovery: null,
    recoveryBusy: false,
    recoveryError: null,
    recent: null,
    pickerOpen: false,
    filter: EMPTY_FILTER,
    rows: [],
    rowsLoading: false,
    rowsError: null,
    projects: [],
    projectError: null,

    async start() {
      void get().loadProjects();
      void get().loadRecent();
      try {
        const recovery = await sessionsApi.recover({});
        if (recovery.needed && recovery.session) set({ recovery });
      } catch {
        // Without the recovery check the empty state still offers the recent sessions.
      }
    },

    async loadRecent() {
      try {
        set({ recent: await sessionsApi.recentSessions({ limit: RECENT_LIMIT }) });
      } catch {
        set({ recent: [] }); // The sidebar still lists every session.
      }
    },

    async resumeRecovery() {
      const { recovery } = get();
      const id = recovery?.session?.id;
      if (!id || get().recoveryBusy) return;
      set({ recoveryBusy: true, recoveryError: null });
      try {
        await sessionsApi.resumeSession(id);
        set({ recovery: null, recoveryBusy: false });
        await openAndRetry(id);
      } catch (err) {
        set({ recoveryBusy: false, recoveryError: describeError(err).message });
      }
    },

    async browseRecovery() {
      const id = get().recovery?.session?.id;
      if (!id) return;
      set({ recovery: null });
      await get().openSession(id, { browse: true, resume: true });
    },

    async dismissRecovery() {
      const id = get().recovery?.session?.id;
      set({ recovery: null });
      if (id) await sessionsApi.recover({ dismiss_session_id: id }).catch(() => undefined);
    },

    openPicker() {
      // Each opening starts from the most recent sessions, unfiltered.
      set({ pickerOpen: true, filter: EMPTY_FILTER });
      void get().loadRows();
      void get().loadProjects();
    },

    closePicker() {
      set({ pickerOpen: false });
    },

    setFilter(patch) {
      set((s) => ({ filter: { ...s.filter, ...patch } }));
    },

    async loadRows() {
      const mine = ++rowsGeneration;
      const f = get().filter;
      set({ rowsLoading: true, rowsError: null });
      try {
        const rows = await sessionsApi.recentSessions({
          q: f.q.trim() || undefined,
          project_id: f.projectId || undefined,
          from: dayBound(f.from, false),
          to: dayBound(f.to, true),
          limit: f.limit,
        });
        if (mine === rowsGeneration) set({ rows, rowsLoading: false });
      } catch (err) {
        if (mine === rowsGeneration) set({ rowsLoading: false, rowsError: describeError(err).message });
      }
    },

    async openSession(id, opts = {}) {
      if (opts.resume) await sessionsApi.resumeSession(id).catch(() => undefined);
      set({ pickerOpen: false });
      useSessionsStore.getState().select(id);
      if (opts.browse) useCheckpointsStore.getState().setPanelOpen(true);
    },

    async loadProjects() {
      try {
        set({ projects: await projectsApi.listProjects() });
      } catch (err) {
        set({ projectError: describeError(err).message });
      }
    },

    async createProject(name) {
      set({ projectError: null });
      try {
        const project = await projectsApi.createProject(name.trim());
        await get().loadProjects();
        return project;
      } catch (err) {
        const e = describeError(err);
        set({ projectError: e.code === "duplicate_name" ? `A project named "${name.trim()}" already exists.` : e.message });
        return null;
      }
    },

    async renameProject(id, name) {
      set({ projectError: null });
      try {
        await projectsApi.renameProject(id, name.trim());
        await get().loadProjects();
        if (get().pickerOpen) void get().loadRows();
      } catch (err) {
        set({ projectError: describeError(err).message });
      }
    },

    async deleteProject(id) {
      set({ projectError: null });
      try {
        await projectsApi.deleteProject(id);
        if (get().filter.projectId === id) get().setFilter({ projectId: "" });
        await get().loadProjects();
        if (get().pickerOpen) void get().loadRows();
      } catch (err) {
        set({ projectError: describeError(err).message });
      }
    },

    async assignProject(sessionId, projectId) {
      set({ projectError: null });
      try {
        const session = await sessionsApi.patchSession(sessionId, { project_id: projectId });
        useSessionsStore.getState().upsert(session);
        void get().loadProjects();
      } catch (err) {
        set({ projectError: describeError(err).message });
      }
    },
  };
});
