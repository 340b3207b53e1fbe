"use client";
import { useEffect } from "react";

/**
 * Calls onEscape when Escape is pressed anywhere on the page, for as long as the calling
 * component is mounted: panels close on Escape even when focus is outside them. Heard first
 * (capture on window) and marked handled, so the same key does not also stop a streaming
 * reply (SendButton) while an overlay is what it closes.
 */
export function useEscapeKey(onEscape: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      onEscape();
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [onEscape]);
}
