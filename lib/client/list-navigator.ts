// The open message list renders only the rows near the viewport, so a loaded message may have
// no element yet. The list registers how to bring a message's row into the DOM; a jump (search,
// fact provenance) asks it here before looking for the element.

export interface ListNavigator {
  /** Scrolls the row of the loaded message `seq` to the top of the view; false when the list does not show it. */
  showSeq(seq: number): boolean;
  /** Scrolls the list to `scrollTop`, ending any scroll to a row still being settled. */
  scrollTo(scrollTop: number): void;
}

let current: ListNavigator | null = null;

/** Registers the mounted list; returns the unregister function. */
export function registerListNavigator(nav: ListNavigator): () => void {
  current = nav;
  return () => {
    if (current === nav) current = null;
  };
}

export function listNavigator(): ListNavigator | null {
  return current;
}
