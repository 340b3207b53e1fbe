// Small readers over the HTML syntax tree react-markdown hands to its components.
import type { Element, ElementContent, Root, RootContent } from "hast";

/** The text a node shows, as the copy button should copy it. */
export function hastText(node: Root | RootContent | ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element" || node.type === "root") return node.children.map(hastText).join("");
  return "";
}

export function childElement(node: Element | undefined, tagName: string): Element | undefined {
  return node?.children.find((c): c is Element => c.type === "element" && c.tagName === tagName);
}

/** "ts" from a `code` element's `language-ts` class. */
export function codeLanguage(code: Element | undefined): string {
  const classes = code?.properties.className;
  if (!Array.isArray(classes)) return "";
  for (const c of classes) {
    const name = String(c);
    if (name.startsWith("language-")) return name.slice("language-".length);
  }
  return "";
}
