// A rehype plugin for the reply while it streams: the caret goes right after the last word,
// inside whatever block that word is in (paragraph, list item, table cell, code), so it
// follows the text as it arrives instead of sitting on a line of its own.
import type { Element, Root, RootContent, ElementContent, Text } from "hast";

type Parent = Root | Element;

/** The last non-blank text node and its parent, searching depth-first from the end. */
function lastText(parent: Parent): { parent: Parent; node: Text } | null {
  for (let i = parent.children.length - 1; i >= 0; i--) {
    const child: RootContent | ElementContent = parent.children[i];
    if (child.type === "text" && child.value.trim() !== "") return { parent, node: child };
    if (child.type === "element") {
      const found = lastText(child);
      if (found) return found;
    }
  }
  return null;
}

export const CARET_TEST_ID = "streaming-caret";

export function caretElement(): Element {
  return {
    type: "element",
    tagName: "span",
    properties: { className: ["tk-caret"], dataTestid: CARET_TEST_ID, ariaHidden: "true" },
    children: [],
  };
}

export function rehypeStreamingCaret() {
  return (tree: Root) => {
    const found = lastText(tree);
    const caret = caretElement();
    if (!found) {
      tree.children.push(caret);
      return;
    }
    const siblings = found.parent.children as (RootContent | ElementContent)[];
    siblings.splice(siblings.indexOf(found.node) + 1, 0, caret);
  };
}
