// The search shortcut: ⌘ K on Apple systems, where Ctrl K deletes to the end of the line in a
// text field; Ctrl K elsewhere. Browser-only (reads navigator).
function isApple(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform);
}

export function isSearchShortcut(e: KeyboardEvent): boolean {
  return (isApple() ? e.metaKey : e.ctrlKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k";
}

export function searchShortcutLabel(): string {
  return isApple() ? "⌘ K" : "Ctrl K";
}
