// The README and docs/ link to each other and into their own headings: every relative link
// must name a file that exists, and every #anchor a heading of that file (GitHub's slugs).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const PAGES = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Markdown outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const headings = prose(readFileSync(file, "utf8")).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((h) => slug(h.replace(/^#+ /, "").replace(/`/g, ""))));
}

describe("documentation links", () => {
  it("keeps the README short and puts the rest in docs/", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(200);
    expect(PAGES.length).toBeGreaterThan(5);
  });

  for (const page of PAGES) {
    it(`every link in ${page} resolves`, () => {
      const text = prose(readFileSync(path.join(ROOT, page), "utf8"));
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        const [file, anchor] = target.split("#");
        const resolved = file ? path.resolve(path.dirname(path.join(ROOT, page)), file) : path.join(ROOT, page);
        if (!existsSync(resolved)) broken.push(`${target} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) broken.push(`${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }
});
