// The one name of a file's content: the hex SHA-256 of its bytes (the file store's key, the
// files table's sha256, what a resent drop-in image is recognised by).
import "server-only";
import { createHash } from "node:crypto";

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
