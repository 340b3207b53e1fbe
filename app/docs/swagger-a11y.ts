// What axe finds in Swagger UI's markup that no option or stylesheet can change: its servers
// <select> and "Try it out" body editor have no name, and its scrollable example blocks cannot
// be reached from the keyboard.
// Swagger UI re-renders freely, so every change it makes to its tree is patched again.
import { useEffect, type RefObject } from "react";

function patch(root: HTMLElement): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select#servers:not([aria-label])")) {
    select.setAttribute("aria-label", "Server");
  }
  for (const area of root.querySelectorAll<HTMLTextAreaElement>(".body-param textarea:not([aria-label])")) {
    area.setAttribute("aria-label", "Request body");
  }
  // A block that scrolls must take focus, or a keyboard cannot scroll it (WCAG 2.1.1).
  for (const pre of root.querySelectorAll<HTMLElement>(".highlight-code pre:not([tabindex])")) {
    pre.tabIndex = 0;
  }
}

export function useSwaggerA11y(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    patch(root);
    const observer = new MutationObserver(() => patch(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref]);
}
