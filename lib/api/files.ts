// A stored file's bytes as an HTTP answer. Only what we classified can be served, and only as
// what it is: an image or PDF as its own type, everything else as text/plain. The route's
// security headers (nosniff, a CSP that runs nothing) come on top, so an uploaded HTML or SVG
// file is shown as its source, never run in the page's origin.
import "server-only";
import type { FileRow } from "@/lib/db/files";

function contentType(f: FileRow): string {
  if (f.kind === "image" || f.kind === "pdf") return f.media_type;
  return "text/plain; charset=utf-8";
}

/** `Content-Disposition` naming the file: an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function disposition(name: string, download: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${download ? "attachment" : "inline"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileResponse({ file, bytes }: { file: FileRow; bytes: Uint8Array }, download: boolean): Response {
  return new Response(new Blob([new Uint8Array(bytes)]), {
    status: 200,
    headers: {
      "content-type": contentType(file),
      "content-length": String(bytes.byteLength),
      "content-disposition": disposition(file.name, download),
      // The same id always has the same bytes; private: it is the owner's.
      "cache-control": "private, max-age=3600",
    },
  });
}
