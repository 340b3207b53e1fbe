/**
 * Real, minimal PDFs for tests and the benchmark: one Helvetica text page per string, written by
 * hand so no PDF library is needed to make them (unpdf reads them back in the fake).
 *
 *   makePdf(["first page", "second page"]) → Buffer starting with "%PDF-1.4"
 *
 * Long page text is wrapped into 90-character lines so it stays on the page; `(`, `)` and `\`
 * are escaped as PDF string syntax requires. Only Latin-1 text survives the standard encoding.
 */

const LINE_CHARS = 90;
const LINE_HEIGHT = 14;

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > LINE_CHARS) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function contentStream(text: string): string {
  const ops = wrap(text).map((line, i) => (i === 0 ? "" : `0 -${LINE_HEIGHT} Td `) + `(${escapePdfString(line)}) Tj`);
  return `BT /F1 12 Tf 72 720 Td ${ops.join(" ")} ET`;
}

/** A valid PDF with one page per entry of `pages` (at least one page). */
export function makePdf(pages: readonly string[]): Buffer {
  const texts = pages.length === 0 ? [""] : pages;
  // Object numbers: 1 catalog, 2 pages tree, 3 font, then a page and its content stream per page.
  const pageIds = texts.map((_, i) => 4 + i * 2);
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${texts.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  texts.forEach((text, i) => {
    const stream = contentStream(text);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`,
      `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    );
  });

  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
