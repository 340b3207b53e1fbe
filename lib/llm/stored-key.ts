import "server-only";
// The Anthropic key typed into the app (local mode): a file beside the embedded database's folder,
// readable and writable by its owner only. ANTHROPIC_API_KEY, when set, wins. The file is read on
// each use (a few bytes), so a key saved by one request is the next request's key, whichever
// bundle of the server runs it, without a restart. The key itself never leaves: callers get its
// source and last four characters.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataDir, env } from "@/lib/env";
import { supabaseAuth } from "@/lib/mode";

export type KeySource = "environment" | "app" | "none";

/** The key file: THREADKEEPER_KEY_FILE, else `<data dir>-anthropic-key` (never inside PGlite's folder). */
export function keyFile(): string {
  const configured = env().THREADKEEPER_KEY_FILE;
  if (configured) return path.resolve(configured);
  const data = dataDir();
  if (data.startsWith("memory://")) return path.join(os.tmpdir(), `threadkeeper-anthropic-key-${process.pid}`);
  return `${path.resolve(data)}-anthropic-key`;
}

function readStored(): string | null {
  try {
    const key = fs.readFileSync(keyFile(), "utf8").trim();
    return key === "" ? null : key;
  } catch {
    // No file (the usual case), or one this process may not read: no key from the app.
    return null;
  }
}

/** The key Claude is called with, and where it came from. */
export function anthropicKey(): { key: string | null; source: KeySource } {
  const fromEnv = env().ANTHROPIC_API_KEY;
  if (fromEnv) return { key: fromEnv, source: "environment" };
  // SaaS mode calls Claude with the operator's key only.
  if (supabaseAuth()) return { key: null, source: "none" };
  const stored = readStored();
  return stored ? { key: stored, source: "app" } : { key: null, source: "none" };
}

/** Writes the key as a new file created 0600, then moves it into place: never a moment readable by others. */
export function storeKey(key: string): void {
  const file = keyFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, key, { mode: 0o600, flag: "w" });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

export function forgetKey(): void {
  fs.rmSync(keyFile(), { force: true });
}
