"use client";
// The canvas beside the chat. Keeps the open session's canvas loaded (on open, reload and
// switch, and again when the tab comes back into view, since another tab or an API client
// may have changed it), and shows it as a collapsible panel on a wide screen or a
// full-width sheet on a phone. Claude's theme switch applies to the canvas alone.
import { useCallback, useEffect, useId, useRef } from "react";
import { useCanvasStore, type PanelTheme } from "@/lib/client/canvas-store";
import { useCanvasPanelStore } from "@/lib/client/canvas-panel-store";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useDialogFocus } from "@/components/ui/useDialogFocus";
import { useEscapeKey } from "@/components/ui/useEscapeKey";
import { CanvasBody } from "@/components/canvas/CanvasBody";
import { CanvasToasts } from "@/components/canvas/CanvasToasts";
import { useCanvasShown } from "@/components/canvas/useCanvasShown";

const SURFACE = "bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100";

function themeClass(theme: PanelTheme): string {
  return theme === "dark" ? "dark" : theme === "light" ? "tk-light" : "";
}

export function CanvasPanel() {
  const currentId = useSessionsStore((s) => s.currentId);
  const theme = useCanvasStore((s) => s.theme);
  const count = useCanvasStore((s) => s.canvas?.elements.length ?? 0);
  const { wide, shown } = useCanvasShown();
  const titleId = useId();

  useEffect(() => useCanvasPanelStore.getState().hydrate(), []);

  useEffect(() => {
    void useCanvasStore.getState().open(currentId);
    useCanvasPanelStore.getState().resetForSession();
  }, [currentId]);

  useEffect(() => useCanvasPanelStore.getState().noteContent(count > 0), [count]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") void useCanvasStore.getState().reload();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, []);

  const hide = useCallback(() => useCanvasPanelStore.getState().toggle(true), []);

  return (
    <>
      {shown && wide && (
        <aside
          data-testid="canvas-panel"
          aria-labelledby={titleId}
          className={`flex w-[22rem] shrink-0 flex-col border-l border-zinc-200 dark:border-zinc-800 xl:w-96 2xl:w-[30rem] ${themeClass(theme)} ${SURFACE}`}
        >
          <CanvasBody titleId={titleId} sheet={false} onHide={hide} />
        </aside>
      )}
      {shown && !wide && <CanvasSheet titleId={titleId} themeClassName={themeClass(theme)} />}
      <CanvasToasts />
    </>
  );
}

const closeSheet = () => useCanvasPanelStore.getState().setSheetOpen(false);

function CanvasSheet({ titleId, themeClassName }: { titleId: string; themeClassName: string }) {
  useEscapeKey(closeSheet);
  const sheet = useRef<HTMLDivElement>(null);
  useDialogFocus(sheet);
  return (
    <div
      ref={sheet}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="canvas-sheet"
      className={`fixed inset-0 z-40 flex flex-col pt-[env(safe-area-inset-top)] outline-none ${themeClassName} ${SURFACE}`}
    >
      <CanvasBody titleId={titleId} sheet onHide={closeSheet} />
    </div>
  );
}
