"use client";
import { useSyncExternalStore } from "react";
import { WIDE_QUERY } from "@/lib/client/canvas-panel-store";

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(WIDE_QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
}

/** Whether the canvas sits beside the chat (wide) or opens as a sheet; false on the server. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE_QUERY).matches,
    () => false,
  );
}
