// Whether Claude has a key (local mode: the environment's, or one saved in Account settings),
// shared by the empty chat's notice and the settings form, so saving a key clears the notice at once.
import { create } from "zustand";
import type { AnthropicKeyStatusJson } from "@/lib/contract";
import * as prefsApi from "@/lib/client/api/preferences";

interface KeyState {
  status: AnthropicKeyStatusJson | null;
  load(): Promise<void>;
  save(key: string): Promise<void>;
  remove(): Promise<void>;
}

let loading: Promise<void> | null = null;
// Bumped by every save or removal: a read that started before one answers what was true before
// it, and must not overwrite what the change answered (a busy server can answer it last).
let changes = 0;

export const useKeyStore = create<KeyState>()((set) => ({
  status: null,
  load() {
    const at = changes;
    loading ??= prefsApi
      .getAnthropicKey()
      .then((status) => {
        if (at === changes) set({ status });
      })
      .catch(() => {
        // Unknown: no notice rather than a wrong one.
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  },
  async save(key) {
    changes++;
    set({ status: await prefsApi.putAnthropicKey(key) });
  },
  async remove() {
    changes++;
    set({ status: await prefsApi.deleteAnthropicKey() });
  },
}));
