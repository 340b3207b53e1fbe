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

/**
 * Whether a paste is files to attach rather than text to type. Files on the clipboard win (a
 * screenshot, a browser's "Copy image", a file copied in the file manager, which also puts its
 * name as plain text) unless the clipboard holds rich text with words in it: an office app or a
 * web page copies a picture of the selection along with its text, and the text is what was meant.
 */
export function pasteIsFiles(types: readonly string[], plainText: string, fileCount: number): boolean {
  return fileCount > 0 && !(types.includes("text/html") && plainText.trim() !== "");
}
