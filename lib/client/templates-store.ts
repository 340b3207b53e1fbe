// Summary templates: the presets plus the user's own, shared by the settings panel (pick,
// save, delete) and the compaction dividers (which name the template a summary used).
import { create } from "zustand";
import type { TemplateJson } from "@/lib/contract";
import * as api from "@/lib/client/api";

interface TemplatesState {
  templates: TemplateJson[];
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  /** Saves a new template; throws the server's error (e.g. a duplicate name) for the form to show. */
  create(input: { name: string; body: string }): Promise<TemplateJson>;
  remove(id: string): Promise<void>;
}

export const useTemplatesStore = create<TemplatesState>()((set, get) => ({
  templates: [],
  loaded: false,
  error: null,

  async load() {
    try {
      set({ templates: await api.listTemplates(), loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: api.describeError(err).message });
    }
  },

  async create(input) {
    const template = await api.createTemplate(input);
    set({ templates: [...get().templates.filter((t) => t.id !== template.id), template] });
    return template;
  },

  async remove(id) {
    await api.deleteTemplate(id);
    set({ templates: get().templates.filter((t) => t.id !== id) });
  },
}));

/** Names by id, for labelling what a compaction used. */
export function templateNames(templates: TemplateJson[]): Record<string, string> {
  return Object.fromEntries(templates.map((t) => [t.id, t.name]));
}
