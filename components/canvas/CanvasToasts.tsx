"use client";
// Claude's notifications (canvas_show_notification): toasts that announce themselves to screen
// readers, leave on their own after a while (errors stay longer) or on their close button.
// Shown, never kept: a reload does not bring them back.
import { useEffect } from "react";
import { CircleCheck, Info, OctagonAlert, TriangleAlert, X, type LucideIcon } from "lucide-react";
import { useCanvasStore, type CanvasNotification } from "@/lib/client/canvas-store";

const LEVELS: Record<CanvasNotification["level"], { Icon: LucideIcon; tone: string; ms: number }> = {
  info: { Icon: Info, tone: "text-sky-600 dark:text-sky-400", ms: 6_000 },
  success: { Icon: CircleCheck, tone: "text-emerald-600 dark:text-emerald-400", ms: 6_000 },
  warning: { Icon: TriangleAlert, tone: "text-amber-600 dark:text-amber-400", ms: 10_000 },
  error: { Icon: OctagonAlert, tone: "text-red-600 dark:text-red-400", ms: 12_000 },
};

export function CanvasToasts() {
  const notifications = useCanvasStore((s) => s.notifications);
  return (
    <div
      aria-live="polite"
      aria-label="Notifications"
      role="region"
      // Over the chat, just above the composer, never over the canvas it reports on (the panel
      // is on the right; the sidebar is 16rem wide from md up).
      className="pointer-events-none fixed inset-x-3 bottom-24 z-50 flex flex-col-reverse items-stretch gap-2 sm:right-auto sm:w-80 md:left-[calc(16rem+1rem)]"
    >
      {notifications.map((n) => (
        <Toast key={n.id} notification={n} />
      ))}
    </div>
  );
}

function Toast({ notification: n }: { notification: CanvasNotification }) {
  const { Icon, tone, ms } = LEVELS[n.level];
  useEffect(() => {
    const t = setTimeout(() => useCanvasStore.getState().dismiss(n.id), ms);
    return () => clearTimeout(t);
  }, [n.id, ms]);
  return (
    <div
      data-testid="canvas-toast"
      data-level={n.level}
      role={n.level === "error" ? "alert" : "status"}
      className="pointer-events-auto flex items-start gap-2.5 rounded-xl border border-zinc-200 bg-white px-3 py-2.5 text-sm text-zinc-800 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <Icon aria-hidden className={`mt-0.5 h-4 w-4 shrink-0 ${tone}`} />
      <p className="min-w-0 flex-1 break-words">{n.message}</p>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={() => useCanvasStore.getState().dismiss(n.id)}
        className="-mr-1 shrink-0 rounded p-0.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
      >
        <X aria-hidden className="h-3.5 w-3.5" />
      </button>
    </div>
  );
}
