// Splits a summary into its "### " sections: the UI shows them on expand, and the
// extractive summary merges a previous summary section by section.

export interface SummarySection {
  heading: string;
  body: string;
}

const FENCE_LINE = /^\s*```/;

/**
 * Sections in order. Text before the first heading becomes a section with an empty heading
 * (only when it is not blank). Headings inside fenced code are code, not sections, so a
 * summary quoting markdown does not fall apart.
 */
export function parseSections(summary: string): SummarySection[] {
  const out: SummarySection[] = [];
  let heading = "";
  let body: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = body.join("\n").trim();
    if (heading !== "" || text !== "") out.push({ heading, body: text });
  };
  for (const line of summary.split("\n")) {
    if (FENCE_LINE.test(line)) inFence = !inFence;
    const m = !inFence && /^###\s+(.+?)\s*$/.exec(line);
    if (m) {
      flush();
      heading = m[1];
      body = [];
    } else {
      body.push(line);
    }
  }
  flush();
  return out;
}
