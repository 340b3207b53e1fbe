// A response the browser saves as a file: its name from a title, safe in the header whatever
// the title holds (RFC 6266: an ASCII fallback and the UTF-8 name).
import "server-only";
import { titleFileName } from "@/lib/files/classify";

/** A download's name from a title (lib/files/classify.ts titleFileName). */
export function fileNameOf(title: string, extension: string): string {
  return `${titleFileName(title, "threadkeeper")}.${extension}`;
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
