// Brings one saved message into view: opens its session if another one is open, pages older
// messages in until it is rendered, scrolls to it and marks it for a moment. Used by the
// memory panel's fact provenance ("message 12"), so a fact can be checked against what was said,
// and by the search dialog's hits.
import { useConversationStore } from "@/lib/client/conversation-store";
import { useSessionsStore } from "@/lib/client/sessions-store";

/** Older pages fetched at most (50 messages each) before giving up on reaching the message. */
const MAX_PAGES = 40;
const MARK_MS = 2500;
const WAIT_MS = 15_000;

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function rendered(seq: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="message-list"] [data-seq="${seq}"]`);
}

/** Resolves true once `ready` holds for the conversation store, false on timeout or once `abandon` holds. */
function until(ready: () => boolean, abandon: () => boolean): Promise<boolean> {
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(false), WAIT_MS);
    const unsubscribe = useConversationStore.subscribe(() => {
      if (ready()) finish(true);
      else if (abandon()) finish(false);
    });
    function finish(ok: boolean) {
      clearTimeout(timer);
      unsubscribe();
      resolve(ok);
    }
  });
}

function reveal(el: HTMLElement): void {
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
  // Focus follows the jump, so keyboard and screen-reader users land where sighted ones look.
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus({ preventScroll: true });
  // Set on the element directly: React does not own this attribute, so a re-render keeps it.
  el.setAttribute("data-jump-target", "true");
  setTimeout(() => el.removeAttribute("data-jump-target"), MARK_MS);
}

/**
 * True when the message was found and shown; false when it no longer exists or could not be
 * reached. `beforeReveal` runs once it is found (the memory panel closes itself there, so
 * focus lands on the message rather than in a closing dialog).
 */
export async function jumpToMessage(sessionId: string, seq: number, beforeReveal?: () => void): Promise<boolean> {
  if (useSessionsStore.getState().currentId !== sessionId) useSessionsStore.getState().select(sessionId);
  const current = () => useConversationStore.getState().sessionId === sessionId;
  const away = () => useSessionsStore.getState().currentId !== sessionId;
  if (!(await until(() => current() && !useConversationStore.getState().loading, away))) return false;
  for (let page = 0; page <= MAX_PAGES; page++) {
    await nextFrame();
    const el = rendered(seq);
    if (el) {
      beforeReveal?.();
      reveal(el);
      return true;
    }
    const s = useConversationStore.getState();
    if (s.sessionId !== sessionId || !s.hasMore || (s.messages[0]?.seq ?? 0) <= seq) return false;
    // A page the list itself asked for (scrolled near the top) may be on its way: wait for it.
    if (s.loadingOlder) {
      if (!(await until(() => !useConversationStore.getState().loadingOlder, away))) return false;
    } else await s.loadOlder();
  }
  return false;
}
