// Text shaping for the message list, pure so it can be tested without a browser.

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** The fence a text leaves open at its end ("```", "~~~~"), or null when every block is closed. */
export function openFence(text: string): string | null {
  let open: string | null = null;
  for (const line of text.split("\n")) {
    const m = FENCE_LINE.exec(line);
    if (!m) continue;
    if (open === null) open = m[1];
    // A closing fence uses the opening character, at least as many times, and nothing after it.
    else if (m[1][0] === open[0] && m[1].length >= open.length && line.trim() === m[1]) open = null;
  }
  return open;
}

/**
 * The start of a long message, for its collapsed view: cut at a paragraph or line break
 * when one falls in the second half of the budget, so a word, a table row or a markdown
 * marker is not split, and with a code block cut in the middle closed again, so the
 * ellipsis and whatever follows are not swallowed into the code.
 */
export function messagePreview(text: string, limit: number): string {
  let cut = text.slice(0, limit);
  if (cut.length < text.length) {
    const paragraph = cut.lastIndexOf("\n\n");
    const line = cut.lastIndexOf("\n");
    if (paragraph > limit / 2) cut = cut.slice(0, paragraph);
    else if (line > limit / 2) cut = cut.slice(0, line);
  }
  cut = cut.trimEnd();
  const fence = openFence(cut);
  return fence ? `${cut}\n${fence}\n\n…` : `${cut} …`;
}

/** `text` as one markdown inline code span, whatever backticks it contains. */
export function inlineCode(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longestRun + 1);
  // A span that starts or ends with a backtick needs a space inside its fence (CommonMark strips one).
  const pad = /^`|`$/.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Markdown's markup dropped from a one-line preview of a reply (checkpoint hovers, the
 * picker's last message), where `## Plan` or `**yes**` would show their syntax. Only paired
 * markers and headings' leading hashes go; `__init__` and a lone `*` in a glob stay.
 */
export function previewText(text: string): string {
  return text
    .replace(/(^|\s)#{1,6}\s+/g, "$1")
    .replace(/```[\w+-]*/g, "")
    .replace(/\*\*(\S(?:[^\n]*?\S)?)\*\*/g, "$1")
    .replace(/`([^`\n]+)`/g, "$1")
    .replace(/!?\[([^\]\n]+)\]\([^)\s]+\)/g, "$1")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}
