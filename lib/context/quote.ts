// Stored text quoted into the system prompt inside a tag of ours (<memories>, <conversation_summary>).
// What a user or an injected client saved must not end the block early and go on as the prompt
// itself, nor open a block of its own: the tags of the text are written so that they read as
// text. Pure.

/** Text with `&`, `<` and `>` as entities: no tag in it can open or close anything. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Text with only `tag`'s own opening and closing tags neutralized (`<` as `&lt;`), however they are
 * spelled (case, spaces): for long text such as a summary full of code, which reads better with
 * its other angle brackets left alone.
 */
export function neutralizeTag(text: string, tag: string): string {
  const pattern = new RegExp(`<(\\s*/?\\s*${tag.replace(/[^\w-]/g, "")}(?![\\w-]))`, "gi");
  return text.replace(pattern, "&lt;$1");
}
