import { describe, it, expect } from "vitest";
import { looksLikePdf, MAX_PDF_BYTES, MAX_PDF_PAGES, PdfError, readPdf, type PdfProblem } from "@/lib/files/pdf";
import { makePdf } from "./helpers/pdf";

const ascii = (s: string) => new TextEncoder().encode(s);

async function problemOf(run: Promise<unknown>): Promise<PdfProblem | "resolved"> {
  try {
    await run;
    return "resolved";
  } catch (error) {
    expect(error).toBeInstanceOf(PdfError);
    return (error as PdfError).problem;
  }
}

/** The longest gap between ticks of a 5 ms interval while `run` is awaited (the last gap included). */
async function longestStall<T>(run: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 5);
    last = now;
  };
  const timer = setInterval(tick, 5);
  try {
    const value = await run();
    tick();
    return { value, stallMs };
  } finally {
    clearInterval(timer);
  }
}

const line = "Quarterly ledger: receipts, disbursements and the balance carried forward to the next page.";
const densePages = (n: number) => Array.from({ length: n }, (_, p) => Array.from({ length: 45 }, (_, l) => `${p + 1}.${l + 1} ${line}`).join("\n"));

describe("makePdf (test helper)", () => {
  it("writes an xref whose every offset points at its object", () => {
    const pdf = makePdf(["one", "two"]);
    const text = Buffer.from(pdf).toString("latin1");
    const xref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe("xref");
    const entries = text.slice(xref).split("\n").slice(3, 3 + 7);
    entries.forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
  });
});

describe("readPdf", () => {
  it("round-trips each page's text, in order, escapes and empty pages included", async () => {
    const pages = ["Hello world", "Second page\nline two", "", "Parens (kept) and a back\\slash", "caf\u00e9 \u00a3 5"];
    expect(await readPdf(makePdf(pages))).toEqual({ pages: 5, pageTexts: pages });
  });

  it("finds words on the last page of a 100-page PDF without stalling the event loop", async () => {
    const started = performance.now();
    const { value, stallMs } = await longestStall(() => readPdf(makePdf(densePages(100))));
    const elapsed = performance.now() - started;
    expect(value.pages).toBe(100);
    expect(value.pageTexts[99]).toContain("100.45 Quarterly ledger");
    // On the main thread pdf.js holds the loop ~550 ms for this file; here the worker does. The
    // margin is for a busy machine, where a timer may be late without any parsing on the loop.
    expect(stallMs).toBeLessThan(250);
    expect(elapsed).toBeLessThan(10_000);
  });

  it("accepts 600 pages and refuses 601 from the page count", async () => {
    const short = (n: number) => makePdf(Array.from({ length: n }, (_, i) => `p${i + 1}`));
    const read = await readPdf(short(MAX_PDF_PAGES));
    expect(read.pages).toBe(600);
    expect(read.pageTexts[599]).toBe("p600");
    const refused = await readPdf(short(MAX_PDF_PAGES + 1)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PdfError);
    expect(refused).toMatchObject({ problem: "too_many_pages", details: { pages: 601, maxPages: 600 } });
  });

  it("holds to a lower page limit when asked (models with a 200k window take 100)", async () => {
    expect(await problemOf(readPdf(makePdf(["a", "b", "c"]), { maxPages: 2 }))).toBe("too_many_pages");
  });

  it("refuses a 'PDF' that is an HTML page, an empty file or an image, before starting a worker", async () => {
    expect(await problemOf(readPdf(ascii("<!doctype html><html><body>Access denied</body></html>")))).toBe("not_pdf");
    expect(await problemOf(readPdf(new Uint8Array(0)))).toBe("not_pdf");
    expect(await problemOf(readPdf(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)))).toBe("not_pdf");
  });

  it("calls a file with the header but no PDF inside unreadable", async () => {
    expect(await problemOf(readPdf(ascii("%PDF-1.4\n")))).toBe("unreadable");
    expect(await problemOf(readPdf(ascii("<html>%PDF-1.7 in the text</html>")))).toBe("unreadable");
    const good = makePdf(["Hello world", "Second page"]);
    expect(await problemOf(readPdf(good.subarray(0, good.length >> 1)))).toBe("unreadable");
  });

  it("reads a bigger array's view without sending the rest, and leaves the caller's bytes intact", async () => {
    const pdf = makePdf(["inside a view"]);
    const host = new Uint8Array(pdf.length + 100);
    host.set(pdf, 50);
    const view = host.subarray(50, 50 + pdf.length);
    expect(await readPdf(view)).toEqual({ pages: 1, pageTexts: ["inside a view"] });
    expect(view).toEqual(pdf);
  });

  it("refuses a password-protected PDF as encrypted", async () => {
    expect(await problemOf(readPdf(makePdf(["secret"], { locked: true })))).toBe("encrypted");
  });

  it("refuses a file over the API's 32 MB without parsing it", async () => {
    const big = new Uint8Array(MAX_PDF_BYTES + 1);
    big.set(ascii("%PDF-1.4\n"));
    const refused = await readPdf(big).catch((e: unknown) => e);
    expect(refused).toMatchObject({ problem: "too_large", details: { bytes: MAX_PDF_BYTES + 1 } });
  });

  it("stops a read that runs over its time budget", async () => {
    expect(await problemOf(readPdf(makePdf(densePages(600)), { timeoutMs: 50 }))).toBe("too_slow");
    // And the next read is not held up by the one that was stopped.
    expect((await readPdf(makePdf(["after"]))).pageTexts).toEqual(["after"]);
  });

  it("reads several PDFs at once, each its own", async () => {
    const reads = await Promise.all([1, 2, 3, 4, 5].map((n) => readPdf(makePdf([`document ${n}`]))));
    expect(reads.map((r) => r.pageTexts[0])).toEqual(["document 1", "document 2", "document 3", "document 4", "document 5"]);
  });

  it("never hands back NUL, which PostgreSQL cannot store", async () => {
    const read = await readPdf(makePdf(["a\0b"]));
    expect(read.pageTexts[0]).not.toContain("\0");
  });
});

describe("looksLikePdf", () => {
  it("finds %PDF- at the start or within the first 1024 bytes, and nowhere else", () => {
    expect(looksLikePdf(ascii("%PDF-1.7\n"))).toBe(true);
    expect(looksLikePdf(ascii(" ".repeat(1000) + "%PDF-1.7"))).toBe(true);
    expect(looksLikePdf(ascii(" ".repeat(1020) + "%PDF-1.7"))).toBe(false);
    expect(looksLikePdf(ascii("%PDF"))).toBe(false);
    expect(looksLikePdf(ascii("%PDX-1.7"))).toBe(false);
  });
});
