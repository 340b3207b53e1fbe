// A request's body, read against its endpoint's limit before any of it is kept: the declared
// Content-Length is checked first, and a body without one (chunked) is counted as it streams and
// abandoned the moment it passes the limit. Reading whole and measuring after let one streamed
// gigabyte grow the process by gigabytes.
import "server-only";
import { AppError } from "@/lib/errors";

export function tooLarge(maxBytes: number): AppError {
  // Connection: close, so the rest of an oversized upload is not read off the socket for nothing.
  return new AppError(413, "payload_too_large", `Request body exceeds ${maxBytes} bytes`, { max_bytes: maxBytes }, { connection: "close" });
}

/** The body as text (UTF-8), or a 413 once it is known to exceed `maxBytes`. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  // As Request.text() decodes: a leading BOM dropped, malformed bytes replaced.
  return new TextDecoder().decode(await readBodyBytes(req, maxBytes));
}

/** The body's bytes, or a 413 once it is known to exceed `maxBytes`. */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
