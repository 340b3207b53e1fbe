// Summary templates: the presets plus the user's own, shared by the settings panel (pick,
// save, delete) and the compaction dividers (which name the template a summary used).
import { create } from "zustand";
import type { TemplateJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as contextApi from "@/lib/client/api/context";

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
      set({ templates: await contextApi.listTemplates(), loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: describeError(err).message });
    }
  },

  async create(input) {
    const template = await contextApi.createTemplate(input);
    set({ templates: [...get().templates.filter((t) => t.id !== template.id), template] });
    return template;
  },

  async remove(id) {
    await contextApi.deleteTemplate(id);
    set({ templates: get().templates.filter((t) => t.id !== id) });
  },
}));

/** Names by id, for labelling what a compaction used. */
export function templateNames(templates: TemplateJson[]): Record<string, string> {
  return Object.fromEntries(templates.map((t) => [t.id, t.name]));
}
