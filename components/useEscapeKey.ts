"use client";
import { useEffect } from "react";

/**
 * Calls onEscape when Escape is pressed anywhere on the page, for as long as the calling
 * component is mounted: panels close on Escape even when focus is outside them.
 */
export function useEscapeKey(onEscape: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onEscape();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onEscape]);
}
