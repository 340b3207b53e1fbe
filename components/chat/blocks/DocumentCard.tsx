"use client";
// A document the user attached (or a tool returned): a file card with its kind, title and
// page count, and for a plain-text document its first lines, open on request to the whole.
import { useId, useState } from "react";
import { ExternalLink, FileText, FileType, Link as LinkIcon } from "lucide-react";
import { fileHref } from "@/lib/client/api/files";
import { asRecord, domainOf, firstLines, num, safeHref, storedFileId, str, type Loose } from "@/lib/client/content-blocks";
import { OPEN_LINK_CLASS } from "@/components/chat/blocks/FileBlocks";

const PREVIEW_LINES = 4;

interface DocumentView {
  kind: "PDF" | "Text" | "Document";
  title: string;
  pages: number | null;
  tokens: number | null;
  /** The document's own text, for a text source. */
  text: string | null;
  href: string | null;
  /** A file attached here: its bytes on this server. */
  stored: string | null;
}

/** What the card says about a document block, whatever fields it has. */
export function documentView(block: Loose): DocumentView {
  const source = asRecord(block.source) ?? {};
  const facts = asRecord(block.threadkeeper) ?? {};
  const type = str(source.type);
  const media = str(source.media_type) ?? "";
  const url = str(source.url);
  const pdf = media === "application/pdf" || (type === "url" && /\.pdf(?:$|[?#])/i.test(url ?? ""));
  let text: string | null = null;
  if (type === "text") text = str(source.data);
  else if (type === "content") {
    const c = source.content;
    text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => str(asRecord(p)?.text) ?? "").filter(Boolean).join("\n") : null;
  }
  const href = safeHref(url);
  const storedId = storedFileId(block);
  const fallback = href ? domainOf(href) : (str(facts.name) ?? (str(source.file_id) ? "Uploaded file" : "Document"));
  return {
    kind: pdf ? "PDF" : text !== null || (storedId !== null && media.startsWith("text/")) ? "Text" : "Document",
    title: str(block.title)?.trim() || fallback,
    pages: num(facts.pages),
    tokens: num(facts.tokens),
    text,
    href,
    stored: storedId ? fileHref(storedId) : null,
  };
}

export function DocumentCard({ block }: { block: Loose }) {
  const doc = documentView(block);
  const [open, setOpen] = useState(false);
  const panel = useId();
  const preview = doc.text !== null ? firstLines(doc.text, PREVIEW_LINES) : null;
  const meta = [
    doc.kind,
    // A stored text file's pages are open_file's ranges of lines, not pages anyone would count.
    doc.pages !== null && !(doc.stored && doc.kind === "Text") ? `${doc.pages} page${doc.pages === 1 ? "" : "s"}` : null,
    doc.tokens !== null && doc.tokens > 0 ? `~${doc.tokens.toLocaleString("en-US")} tokens` : null,
  ].filter(Boolean);
  const Icon = doc.kind === "PDF" ? FileText : FileType;
  return (
    <div
      data-testid="document-card"
      data-kind={doc.kind}
      className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-2.5 text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="flex items-center gap-3">
        <span
          aria-hidden
          className={`flex h-10 w-10 shrink-0 flex-col items-center justify-center rounded-lg ${
            doc.kind === "PDF" ? "bg-red-50 text-red-700 dark:bg-red-950/60 dark:text-red-300" : "bg-sky-50 text-sky-800 dark:bg-sky-950/60 dark:text-sky-300"
          }`}
        >
          <Icon className="h-5 w-5" />
          {doc.kind === "PDF" && <span className="text-[8px] font-bold leading-none tracking-wide">PDF</span>}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={doc.title} data-testid="document-title">
            {doc.title}
          </p>
          <p className="truncate text-xs text-zinc-600 dark:text-zinc-400" data-testid="document-meta">
            {meta.join(" · ")}
          </p>
        </div>
        {doc.stored && (
          <a href={doc.stored} target="_blank" rel="noopener" aria-label={`Open ${doc.title}`} data-testid="document-open" className={OPEN_LINK_CLASS}>
            Open
            <ExternalLink aria-hidden className="h-3 w-3" />
          </a>
        )}
        {doc.href && (
          <a
            href={doc.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            aria-label={`Open ${doc.title} (${domainOf(doc.href)})`}
            className="shrink-0 rounded p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
          >
            <LinkIcon aria-hidden className="h-4 w-4" />
          </a>
        )}
      </div>
      {preview && preview.head.trim() !== "" && (
        <div className="mt-2">
          <pre
            id={panel}
            data-testid="document-preview"
            tabIndex={0}
            aria-label={`${doc.title}, ${open ? "full text" : "first lines"}`}
            className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 px-2.5 py-2 font-mono text-[11px] leading-relaxed text-zinc-700 ring-1 ring-inset ring-zinc-200 dark:bg-zinc-950 dark:text-zinc-300 dark:ring-zinc-800"
          >
            {open ? doc.text : preview.head}
          </pre>
          {preview.more && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={panel}
              onClick={() => setOpen((v) => !v)}
              className="mt-1 rounded px-1 text-xs font-medium text-sky-700 hover:underline dark:text-sky-400"
            >
              {open ? "Show less" : "Show all"}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
