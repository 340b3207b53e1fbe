// Brings one saved message into view: opens its session if another one is open, pages older
// messages in until it is loaded, has the list draw its row (the list is virtualised, so a
// loaded message may have no element), scrolls so its start shows and marks it for a moment. Used by the
// memory panel's fact provenance ("message 12"), so a fact can be checked against what was said,
// and by the search dialog's hits.
import { useConversationStore } from "@/lib/client/conversation-store";
import { listNavigator } from "@/lib/client/list-navigator";
import { useSessionsStore } from "@/lib/client/sessions-store";

/** Older pages fetched at most (50 messages each) before giving up on reaching the message. */
const MAX_PAGES = 120;
/** Frames to wait for the list to draw a row it was asked to show, and for the rows around it to settle. */
const DRAW_FRAMES = 90;
const ASK_EVERY = 8;
/** Space kept above a message taller than the view, so its first line is not flush with the edge. */
const TOP_GAP_PX = 12;
const MARK_MS = 2500;
const WAIT_MS = 15_000;

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function rendered(seq: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="message-list"] [data-seq="${seq}"]`);
}

/**
 * Asks the list to draw the row of a loaded message and waits until its element exists and
 * has stopped moving (rows above it are measured as they are drawn and shift it).
 */
async function drawn(seq: number): Promise<HTMLElement | null> {
  if (!useConversationStore.getState().messages.some((m) => m.seq === seq)) return null;
  let top: number | null = null;
  for (let frame = 0; frame < DRAW_FRAMES; frame++) {
    const el = rendered(seq);
    if (el) {
      const now = el.getBoundingClientRect().top;
      if (top !== null && Math.abs(now - top) < 1) return el;
      top = now;
    } else if (frame % ASK_EVERY === 0) {
      // Asked again now and then: a page arriving meanwhile keeps the rows in view where
      // they were, which can undo the list's scroll to the row.
      listNavigator()?.showSeq(seq);
    }
    await nextFrame();
  }
  return rendered(seq);
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

/**
 * Centred when it fits, otherwise its start at the top: a long message's first line is where
 * reading starts. Instant, because a smooth scroll through a virtualised list passes rows that
 * are measured on the way and move the target.
 */
function reveal(el: HTMLElement): void {
  const list = el.closest<HTMLElement>('[data-testid="message-list"]');
  if (list) {
    const box = list.getBoundingClientRect();
    const at = el.getBoundingClientRect();
    const fits = at.height + 2 * TOP_GAP_PX <= box.height;
    const target = fits ? at.top - box.top - (box.height - at.height) / 2 : at.top - box.top - TOP_GAP_PX;
    const nav = listNavigator();
    if (nav) nav.scrollTo(list.scrollTop + target);
    else list.scrollTop += target;
  } else el.scrollIntoView({ block: "start" });
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
    const el = await drawn(seq);
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
