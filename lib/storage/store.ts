// What every file store is, and the key checks both backends share. Apart from index.ts so the
// backends can name the interface without importing the module that imports them (no circles).
import "server-only";
import { sha256Hex } from "@/lib/files/digest";

/**
 * Bytes of attached files, content-addressed per user: the key is (userId, sha256 of the bytes),
 * so the same bytes uploaded twice by one user are stored once, and two users never share an
 * object (deleting one's file cannot take the other's).
 */
export interface FileStore {
  readonly kind: "local" | "supabase";
  /** Stores the bytes under (userId, sha256); idempotent: the same bytes again is a no-op. */
  put(userId: string, sha256: string, bytes: Uint8Array, mediaType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under that key. */
  get(userId: string, sha256: string): Promise<Uint8Array | null>;
  /** Removes these objects; missing ones are not an error. */
  remove(userId: string, sha256s: readonly string[]): Promise<void>;
}

// Both parts become path segments (a folder, an object name): only these shapes can never hold
// "/", "..", "\\" or NUL, so no key can reach outside its user's folder or prefix.
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256_RE = /^[0-9a-f]{64}$/;

/**
 * Throws unless the key is a lowercase uuid and 64 lowercase hex digits. A plain Error (a 500):
 * both come from the server itself (the caller's id, a digest it computed), so a bad one is a bug.
 */
export function checkKey(userId: string, sha256: string): void {
  if (!UUID_RE.test(userId)) throw new Error(`file store: the user id must be a lowercase uuid, got ${JSON.stringify(userId.slice(0, 80))}`);
  if (!SHA256_RE.test(sha256)) throw new Error(`file store: the key must be 64 lowercase hex digits (a SHA-256), got ${JSON.stringify(sha256.slice(0, 80))}`);
}

/**
 * Throws unless `bytes` hash to `sha256`. Objects are shared by every file of a user with the
 * same digest and never rewritten, so bytes stored under the wrong digest would be served for
 * other files forever; hashing costs about 20 ms for the largest file (32 MB).
 */
export function checkObject(userId: string, sha256: string, bytes: Uint8Array): void {
  checkKey(userId, sha256);
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw new Error(`file store: the bytes' SHA-256 is ${actual}, not the key ${sha256}`);
}
