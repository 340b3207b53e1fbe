// Citations of a run of text blocks as numbered sources: each source (a web page, a page of a
// document, a search result) gets one number, the first time it is cited, and each text block
// lists the numbers of what it cites. The markers go into the markdown as links to "#tk-cite-N",
// which the renderer draws as small numbered chips.
import { asRecord, domainOf, list, num, safeHref, str, type Loose } from "@/lib/client/content-blocks";

export interface CitationSource {
  n: number;
  /** What the source is called: the page's title, the document's title. */
  title: string;
  /** A short label beside the number: the site's domain, "p. 3". */
  label: string;
  /** Where the source can be opened (http(s) only), else null. */
  href: string | null;
  /** The cited words, for a tooltip. */
  cited: string | null;
}

export interface NumberedCitations {
  sources: CitationSource[];
  /** Per text block of the run: the numbers it cites, each once, in order. */
  marks: number[][];
}

/** "p. 3", or "pp. 3–4": the API's end page is exclusive. */
function pages(c: Loose): string | null {
  const start = num(c.start_page_number);
  if (start === null) return null;
  const end = num(c.end_page_number);
  const last = end !== null && end - 1 > start ? end - 1 : null;
  return last === null ? `p. ${start}` : `pp. ${start}–${last}`;
}

/** One citation as a source (key: what makes two citations the same source). */
function sourceOf(c: Loose): Omit<CitationSource, "n"> & { key: string } {
  const type = str(c.type) ?? "citation";
  const cited = str(c.cited_text);
  const docTitle = str(c.document_title) ?? "Document";
  const doc = num(c.document_index) ?? 0;
  switch (type) {
    case "web_search_result_location": {
      const href = safeHref(c.url);
      const url = str(c.url) ?? "";
      return { key: `url:${url}`, title: str(c.title) ?? (url || "Web page"), label: url ? domainOf(url) : "web", href, cited };
    }
    case "search_result_location": {
      const source = str(c.source) ?? "";
      const href = safeHref(source);
      return { key: `sr:${source}:${str(c.title) ?? ""}`, title: str(c.title) ?? (source || "Search result"), label: href ? domainOf(source) : source || "result", href, cited };
    }
    case "page_location": {
      const p = pages(c) ?? "page";
      return { key: `doc:${doc}:${p}`, title: docTitle, label: p, href: null, cited };
    }
    case "char_location":
    case "content_block_location":
      return { key: `doc:${doc}`, title: docTitle, label: "doc", href: null, cited };
    default: {
      const href = safeHref(c.url);
      return { key: `${type}:${str(c.url) ?? cited ?? ""}`, title: str(c.title) ?? type, label: href ? domainOf(href) : type, href, cited };
    }
  }
}

/** Numbers the sources a run of text blocks cites, first cited first. */
export function numberCitations(blocks: readonly Loose[]): NumberedCitations {
  const byKey = new Map<string, CitationSource>();
  const marks = blocks.map((b) => {
    const ns: number[] = [];
    for (const raw of list(b.citations)) {
      const c = asRecord(raw);
      if (!c) continue;
      const { key, ...rest } = sourceOf(c);
      let source = byKey.get(key);
      if (!source) {
        source = { n: byKey.size + 1, ...rest };
        byKey.set(key, source);
      }
      if (!ns.includes(source.n)) ns.push(source.n);
    }
    return ns;
  });
  return { sources: [...byKey.values()], marks };
}

/**
 * Numbers the sources of a whole message, across its runs of text (a reply cut by tool calls):
 * a source keeps its number wherever it is cited again. `marks[run][block]`.
 */
export function numberRuns(runs: readonly (readonly Loose[])[]): { sources: CitationSource[]; marks: number[][][] } {
  const { sources, marks } = numberCitations(runs.flat());
  let at = 0;
  return {
    sources,
    marks: runs.map((run) => {
      const mine = marks.slice(at, at + run.length);
      at += run.length;
      return mine;
    }),
  };
}

export const CITE_PREFIX = "#tk-cite-";

/** The number a marker link stands for, or null when the link is no marker. */
export function citeNumber(href: string | undefined): number | null {
  if (!href?.startsWith(CITE_PREFIX)) return null;
  const n = Number(href.slice(CITE_PREFIX.length));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * The run's text as markdown with a marker after each cited piece. A marker goes before the
 * piece's trailing whitespace, so "…in 2024.\n\n" stays one paragraph with its marker.
 */
export function textWithMarkers(blocks: readonly Loose[], marks: readonly number[][]): string {
  return blocks
    .map((b, i) => {
      const text = str(b.text) ?? "";
      const ns = marks[i] ?? [];
      if (ns.length === 0) return text;
      const body = text.replace(/\s+$/, "");
      const tail = text.slice(body.length);
      return `${body}${ns.map((n) => ` [${n}](${CITE_PREFIX}${n})`).join("")}${tail}`;
    })
    .join("");
}
