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

export const useKeyStore = create<KeyState>()((set) => ({
  status: null,
  load() {
    loading ??= prefsApi
      .getAnthropicKey()
      .then((status) => set({ status }))
      .catch(() => {
        // Unknown: no notice rather than a wrong one.
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  },
  async save(key) {
    set({ status: await prefsApi.putAnthropicKey(key) });
  },
  async remove() {
    set({ status: await prefsApi.deleteAnthropicKey() });
  },
}));
