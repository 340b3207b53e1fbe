// A real, minimal PDF 1.4 written by hand, so the extraction tests need no fixture files and
// no PDF library of their own (which would test unpdf against itself). Each page is one
// content stream drawing its text in Helvetica; the xref table holds each object's byte offset,
// as a strict reader requires.

/** PDF string literal: backslash and parentheses are the only bytes that need escaping in ASCII. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** One line per "\n" of the page's text, 14 points apart, from the top left of a Letter page. */
function contentStream(text: string): string {
  const lines = text.split("\n").map((line, i) => (i === 0 ? `${literal(line)} Tj` : `0 -14 Td ${literal(line)} Tj`));
  return `BT /F1 12 Tf 72 720 Td ${lines.join(" ")} ET`;
}

export interface MakePdfOptions {
  /**
   * Adds a standard security handler whose password nobody knows (the /O and /U entries are
   * filler), so a reader must ask for one: the shape of a password-protected upload.
   */
  locked?: boolean;
}

/** A PDF whose page i shows pages[i] (Latin-1; "\n" starts a new line). */
export function makePdf(pages: readonly string[], options: MakePdfOptions = {}): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + 2 * i);
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  pages.forEach((text, i) => {
    const stream = contentStream(text);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  // The header's second line marks the file as binary for transfer tools, as writers do.
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  const lock = options.locked
    ? ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${"ab".repeat(32)}> /U <${"cd".repeat(32)}> /P -4 >> /ID [<${"01".repeat(16)}> <${"01".repeat(16)}>]`
    : "";
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${lock} >>\nstartxref\n${xref}\n%%EOF\n`;
  // latin1: one byte per character, so the string offsets above are byte offsets.
  return new Uint8Array(Buffer.from(out, "latin1"));
}
