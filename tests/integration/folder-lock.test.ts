import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FolderLockedError, lockDataFolder } from "@/lib/db/folder-lock";
import { openEmbedded } from "@/lib/db";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** Another process holding the folder's lock, once it said so. */
async function holder(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join(import.meta.dirname, "hold-folder.ts"), dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (b: Buffer) => (b.toString().includes("held") ? resolve() : reject(new Error(b.toString()))));
    child.once("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

const tempDir = () => mkdtemp(path.join(os.tmpdir(), "tk-lock-"));

describe("the data folder's lock", () => {
  it("is refused while another process holds it, naming that process and the folder", async () => {
    const dir = await tempDir();
    const other = await holder(dir);
    const err = await lockDataFolder(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FolderLockedError);
    expect((err as FolderLockedError).holder?.pid).toBe(other.pid);
    expect((err as Error).message).toContain(dir);
    expect((err as Error).message).toContain(`process ${other.pid}`);
  });

  it("is free again the moment its holder is killed, with no stale lock to clear", async () => {
    const dir = await tempDir();
    const other = await holder(dir);
    other.kill("SIGKILL");
    await new Promise((r) => other.once("exit", r));
    const release = await lockDataFolder(dir);
    await release();
  });

  it("is shared within one process and let go when the last taker releases it", async () => {
    const dir = await tempDir();
    const one = await lockDataFolder(dir);
    const two = await lockDataFolder(dir);
    await one();
    // Still this process's: another process is refused.
    await expect(holder(dir)).rejects.toThrow(/refused: .*in use by process/);
    await two();
    const other = await holder(dir);
    expect(other.pid).toBeGreaterThan(0);
  });

  it("keeps openEmbedded from opening a folder another process holds, and releases it on close", async () => {
    const dir = await tempDir();
    const other = await holder(dir);
    await expect(openEmbedded(dir)).rejects.toBeInstanceOf(FolderLockedError);
    other.kill("SIGKILL");
    await new Promise((r) => other.once("exit", r));
    const db = await openEmbedded(dir);
    await db.close();
    // Closed: the folder is free for another process.
    await holder(dir);
  });
});
