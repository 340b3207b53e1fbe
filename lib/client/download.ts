// Saves what a same-origin URL answers as a file: the server names it (Content-Disposition),
// the browser's session cookie goes with it, and the page stays where it is.
export function downloadFrom(url: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export const sessionExportUrl = (sessionId: string, format: "md" | "json") => `/api/session/${encodeURIComponent(sessionId)}/export?format=${format}`;
