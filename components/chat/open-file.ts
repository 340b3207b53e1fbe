// What the chat says for Claude's open_file calls: "Opening page 3 of a file…" while the call is
// the reply's only content, then "Opened report.pdf, page 3" on its result, instead of the
// tool's bare name.
import { openedFileName, openFilePart } from "@/lib/context/files";

/** The call's line: the call carries only the file's id, so the name waits for the result. */
export function openingFile(input: unknown): string {
  const part = openFilePart(input);
  return part.startsWith("“") ? `Searching a file for ${part}…` : `Opening ${part} of a file…`;
}

/** The result's title, naming the file when the result does. */
export function openedFile(input: unknown, resultText: string, failed: boolean): string {
  const name = openedFileName(resultText);
  if (failed) return name ? `Could not open ${name}` : "Could not open the file";
  const part = openFilePart(input);
  const file = name ?? "a file";
  return part.startsWith("“") ? `Searched ${file} for ${part}` : `Opened ${file}, ${part}`;
}
