"use client";
// How Claude's markdown becomes elements, where the default would be unsafe or awkward:
// links open in a new tab without handing over this page, an address the URL filter
// removed stays plain text, images are never fetched, tables scroll sideways on a phone
// and code blocks get a copy button.
import type { ComponentProps } from "react";
import type { Components, ExtraProps } from "react-markdown";
import { ImageIcon } from "lucide-react";
import { CodeBlock } from "@/components/markdown/CodeBlock";
import { childElement, codeLanguage, hastText } from "@/components/markdown/hast";

const EXTERNAL = { target: "_blank", rel: "noopener noreferrer nofollow" } as const;

function MarkdownLink({ node: _node, href, children, ...rest }: ComponentProps<"a"> & ExtraProps) {
  // react-markdown's URL filter empties javascript:, data:, vbscript: and other unsafe
  // addresses; what is left must not be clickable at all (an empty href reloads the page).
  if (!href) {
    return (
      <span data-testid="unsafe-link" className="tk-link-removed" title="Link removed: its address is not safe to open">
        {children}
      </span>
    );
  }
  // Footnote references jump within the message; everything else is another site.
  const samePage = href.startsWith("#");
  return (
    <a {...rest} href={href} {...(samePage ? {} : EXTERNAL)}>
      {children}
    </a>
  );
}

/**
 * An image in a reply becomes a link to it. Loading it would let any text Claude was shown
 * (a web page, a pasted document) smuggle data out in the image's address. (Media on the canvas
 * loads once the user shows its host: components/canvas/CanvasMedia.tsx.)
 */
function MarkdownImage({ src, alt }: ComponentProps<"img"> & ExtraProps) {
  const label = alt?.trim() || "image";
  const href = typeof src === "string" ? src : "";
  const content = (
    <>
      <ImageIcon aria-hidden className="mr-1 inline h-3.5 w-3.5 -translate-y-px" />
      {label}
    </>
  );
  if (!href) return <span className="tk-link-removed">{content}</span>;
  return (
    <a href={href} {...EXTERNAL} title={`Image: ${href}`}>
      {content}
    </a>
  );
}

function MarkdownPre({ node, children }: ComponentProps<"pre"> & ExtraProps) {
  const code = childElement(node, "code");
  const language = codeLanguage(code);
  // mdast ends every code block's text with a newline that nobody wants pasted.
  const text = code ? hastText(code).replace(/\n$/, "") : "";
  return (
    <CodeBlock language={language} code={text}>
      {children}
    </CodeBlock>
  );
}

function MarkdownTable({ node: _node, children, ...rest }: ComponentProps<"table"> & ExtraProps) {
  // Focusable so the sideways scroll also works from the keyboard.
  return (
    <div className="tk-table-scroll" role="region" aria-label="Table" tabIndex={0}>
      <table {...rest}>{children}</table>
    </div>
  );
}

export const markdownElements: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  pre: MarkdownPre,
  table: MarkdownTable,
};
