// Claude's markdown as the browser receives it: rendered on the server side of React, so
// the assertions see exactly the elements and attributes that reach the DOM.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownText } from "@/components/markdown/MarkdownText";
import { PlainText } from "@/components/chat/PlainText";

const render = (text: string, streaming = false) => renderToStaticMarkup(createElement(MarkdownText, { text, streaming }));

describe("MarkdownText", () => {
  it("renders GFM: headings, emphasis, lists, task lists, tables, strikethrough, autolinks", () => {
    const html = render(
      [
        "# Plan",
        "",
        "Some **bold** and *italic* and ~~gone~~ text.",
        "",
        "- one",
        "- two",
        "",
        "1. first",
        "",
        "- [x] done",
        "",
        "| a | b |",
        "| - | -: |",
        "| 1 | 2 |",
        "",
        "See https://example.com/docs.",
      ].join("\n"),
    );
    expect(html).toContain("<h1>Plan</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>italic</em>");
    expect(html).toContain("<del>gone</del>");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>/);
    expect(html).toContain("<ol>");
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('href="https://example.com/docs"');
  });

  it("wraps tables in a focusable region that scrolls sideways", () => {
    const html = render("| a | b |\n| - | - |\n| 1 | 2 |");
    expect(html).toMatch(/<div class="tk-table-scroll" role="region" aria-label="Table" tabindex="0"><table>/);
  });

  it("opens links in a new tab without an opener or referrer, and leaves footnote jumps in the page", () => {
    const html = render("[docs](https://example.com) and a note[^1]\n\n[^1]: the note");
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">docs</a>');
    const footnote = /<a [^>]*href="#user-content-fn-1"[^>]*>/.exec(html)?.[0] ?? "";
    expect(footnote).not.toBe("");
    expect(footnote).not.toContain("target=");
  });

  it("highlights fenced code with a named language and gives it a label and a copy button", () => {
    const html = render("```ts\nconst answer: number = 42; // why\n```");
    expect(html).toContain('data-testid="code-block" data-language="ts"');
    expect(html).toContain('class="hljs language-ts"');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('<span class="hljs-comment">// why</span>');
    expect(html).toContain('aria-label="Copy ts code"');
  });

  it("leaves code without a language unhighlighted rather than guessing", () => {
    const html = render("```\nplain words here\n```");
    expect(html).not.toContain("hljs");
    expect(html).toContain("plain words here");
  });

  it("shows raw HTML as text: no script, no image, no event handler reaches the DOM", () => {
    const html = render(
      'Hi <img src=x onerror="window.__pwned=1"> there\n\n<script>window.__pwned=1</script>\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<[^>]+\sonerror=/i);
    expect(html).toContain("&lt;img src=x onerror=");
    expect(html).toContain("&lt;script&gt;");
  });

  it.each([
    "javascript:window.__pwned=1",
    "JavaScript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "&#106;avascript:alert(1)",
    "java%0ascript:alert(1)",
  ])("never renders %s as a link", (href) => {
    const html = render(`[click](${href}) and <${href}>`);
    expect(html).not.toMatch(/<a [^>]*href="(?!https?:)[^"]*:/i);
    expect(html).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
    expect(html).toContain('data-testid="unsafe-link"');
  });

  it("turns images into links instead of fetching them", () => {
    const html = render("![chart](https://tracker.example/p.png?d=secret) and ![x](data:image/png;base64,AAAA)");
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('href="https://tracker.example/p.png?d=secret"');
    expect(html).toContain("chart");
    expect(html).not.toContain("data:image");
  });

  it("puts the streaming caret right after the last word, wherever it is", () => {
    const caret = '<span class="tk-caret" data-testid="streaming-caret" aria-hidden="true"></span>';
    expect(render("Hello **wor", true)).toContain(`<p>Hello **wor${caret}</p>`);
    expect(render("- one\n- tw", true)).toContain(`<li>tw${caret}</li>`);
    expect(render("```js\nlet x = 1", true)).toContain(`<span class="hljs-number">1${caret}</span>`);
    expect(render("Done.", false)).not.toContain("tk-caret");
  });
});

describe("PlainText", () => {
  it("keeps the user's text as typed, markdown characters included, with code blocks set apart", () => {
    const html = renderToStaticMarkup(
      createElement(PlainText, { text: "See **this** and src/__init__.py\n  indented\n```py\nprint(1)\n```" }),
    );
    expect(html).toContain("See **this** and src/__init__.py\n  indented");
    expect(html).not.toContain("<strong>");
    expect(html).toContain('data-language="py"');
    expect(html).toContain("<code>print(1)</code>");
  });

  it("shows HTML typed by the user as text", () => {
    const html = renderToStaticMarkup(createElement(PlainText, { text: '<img src=x onerror="window.__pwned=1">' }));
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;img");
  });
});
