// A large paste (a log, a file, a long document) becomes an attachment chip in the composer
// instead of a wall of text in the input; it is sent after what was typed. Pure.

/** A paste this long (characters or lines) becomes a chip. */
export const LARGE_PASTE_CHARS = 2_000;
export const LARGE_PASTE_LINES = 40;

export interface PastedText {
  id: number;
  text: string;
}

export function isLargePaste(text: string): boolean {
  return text.length >= LARGE_PASTE_CHARS || text.split("\n").length >= LARGE_PASTE_LINES;
}

/** "Pasted text · 120 lines · 4.2K characters". */
export function describePaste(text: string): string {
  const lines = text.split("\n").length;
  const chars = text.length >= 1000 ? `${(text.length / 1000).toFixed(1).replace(/\.0$/, "")}K characters` : `${text.length} characters`;
  return `${lines} line${lines === 1 ? "" : "s"} · ${chars}`;
}

/** What is sent: the typed text, then each paste, apart. */
export function composeMessage(typed: string, pastes: readonly PastedText[]): string {
  return [typed.trim(), ...pastes.map((p) => p.text)].filter((part) => part.trim() !== "").join("\n\n");
}
