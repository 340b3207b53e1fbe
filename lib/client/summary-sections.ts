// A compaction summary, split into the sections the divider shows, each body ready for the
// markdown renderer.
import { KIND_LABELS } from "@/lib/context/compaction/verify";
import { inlineCode } from "@/lib/client/message-text";

export interface SummarySection {
  title: string | null;
  body: string;
}

/**
 * Preserved details are copied verbatim from the conversation, and markdown would change
 * some of them: `__init__.py` turns bold, `src/*.ts and lib/*.ts` italic. Under these
 * labels every item is shown as inline code, exactly as written. Decisions and pending
 * tasks are prose and stay markdown; URLs stay clickable; code items are already fenced.
 */
const VERBATIM_LABELS = new Set([KIND_LABELS.error, KIND_LABELS.file_path, KIND_LABELS.config, KIND_LABELS.identifier]);

export const isPreservedHeading = (title: string | null) => title !== null && /^preserved details\b/i.test(title);

/** Rewrites the "- item" lines of a preserved-details body that sit under a verbatim label. */
export function verbatimDetails(body: string): string {
  let verbatim = false;
  let inFence = false;
  return body
    .split("\n")
    .map((line) => {
      if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence) return line;
      const label = /^\*\*(.+)\*\*$/.exec(line.trim());
      if (label) {
        verbatim = VERBATIM_LABELS.has(label[1]);
        return line;
      }
      const item = /^- (.*)$/.exec(line);
      return verbatim && item && item[1].trim() !== "" ? `- ${inlineCode(item[1])}` : line;
    })
    .join("\n");
}

/** Splits a summary on its `### ` headings; text before the first heading is an untitled section. */
export function summarySections(summary: string): SummarySection[] {
  const sections: SummarySection[] = [];
  let current: SummarySection = { title: null, body: "" };
  for (const line of summary.split("\n")) {
    const heading = /^###\s+(.*)$/.exec(line);
    if (heading) {
      if (current.title !== null || current.body.trim()) sections.push(current);
      current = { title: heading[1].trim(), body: "" };
    } else {
      current.body += `${line}\n`;
    }
  }
  if (current.title !== null || current.body.trim()) sections.push(current);
  // Titles are shown as plain headings, so one written all bold ("### **Errors**") loses its markers.
  return sections.map((s) => {
    const body = s.body.replace(/^\n+|\s+$/g, "");
    return {
      title: s.title?.replace(/^\*\*(.+)\*\*$/, "$1") ?? null,
      body: isPreservedHeading(s.title) ? verbatimDetails(body) : body,
    };
  });
}
