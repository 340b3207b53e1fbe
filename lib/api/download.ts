// A response the browser saves as a file: its name from a title, safe in the header whatever
// the title holds (RFC 6266: an ASCII fallback and the UTF-8 name).
import "server-only";

/** A file name from a title: no path or control characters, at most 80 characters, never empty. */
export function fileNameOf(title: string, extension: string): string {
  const base = title.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 80) || "threadkeeper";
  return `${base}.${extension}`;
}

export function download(body: string, name: string, contentType: string): Response {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "cache-control": "no-store",
    },
  });
}
