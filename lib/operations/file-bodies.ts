// The bytes a request's stored files are sent with, read from the file store. A long
// conversation sends the same PDF with every turn while its turn is in the window, so recent
// bodies are kept (by content, bounded) instead of read and encoded again each time.
import "server-only";
import type { FileBody } from "@/lib/context/files";
import { withUser } from "@/lib/db";
import { filesByIds } from "@/lib/db/files";
import { fileStore } from "@/lib/storage";

/** Characters of encoded bodies kept: a few large PDFs' worth (base64 of 32 MB is ~43 M). */
const KEPT_CHARS = 96 * 1024 * 1024;
const kept = new Map<string, FileBody>();
let keptChars = 0;

function keep(key: string, body: FileBody): void {
  if (body.data.length > KEPT_CHARS / 2) return;
  kept.set(key, body);
  keptChars += body.data.length;
  for (const [k, b] of kept) {
    if (keptChars <= KEPT_CHARS) break;
    kept.delete(k);
    keptChars -= b.data.length;
  }
}

/**
 * The bodies of the user's files with these ids. A file that no longer exists (deleted by its
 * owner) or is not the user's is simply absent: the wire then says it was deleted.
 */
export async function fileBodies(userId: string, ids: readonly string[]): Promise<Map<string, FileBody>> {
  const out = new Map<string, FileBody>();
  if (ids.length === 0) return out;
  const rows = await withUser(userId, (tx) => filesByIds(tx, userId, ids));
  for (const f of rows) {
    const key = `${userId}:${f.sha256}:${f.kind}`;
    let body = kept.get(key);
    if (body) {
      // Most recently used last, so the oldest go first.
      kept.delete(key);
      kept.set(key, body);
    } else {
      const bytes = await fileStore().get(userId, f.sha256);
      if (!bytes) continue;
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      body = { kind: f.kind, media_type: f.media_type, data: f.kind === "text" ? buf.toString("utf8") : buf.toString("base64") };
      keep(key, body);
    }
    out.set(f.id, body);
  }
  return out;
}
