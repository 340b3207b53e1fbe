// One process per data folder. Two PGlite instances on one folder each see only their own
// writes and corrupt its indexes and catalog, silently, so the embedded database is opened only
// by the process that holds this lock.
//
// The lock is a listening Unix socket whose address is derived from the folder's real path.
// The kernel holds it: binding is atomic (two processes started at the same instant cannot both
// win), and it is released the moment its process ends, however it ends (SIGKILL and OOM
// included), so there is no stale-lock rule to get wrong after a crash. A holder whose event loop
// is busy still holds it, which a lock refreshed by a timer (proper-lockfile's mtime) would lose.
// On Linux the address is in the abstract namespace (no file at all); elsewhere it is a socket
// file in the temporary folder, which a crash leaves behind: a refused connection proves nobody
// listens there any more, and only then is the file removed and bound again. A connection to the
// lock answers who holds it, so the loser can name the holder.
//
// Its reach is one kernel network namespace: two containers that mount the same volume do not see
// each other's lock (docs/operations.md).
import "server-only";
import { createHash } from "node:crypto";
import { realpathSync, unlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** What a lock's holder says of itself. */
export interface LockHolder {
  pid: number;
  since: string;
  command: string;
}

/** The data folder is someone else's: the caller must not open it. */
export class FolderLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder ? `process ${holder.pid} (${holder.command}, running since ${holder.since})` : "another process (it did not answer)";
    super(
      `The data folder ${dir} is in use by ${who}. One Threadkeeper process per data folder: ` +
        "stop that one first, or point THREADKEEPER_DATA_DIR at another folder.",
    );
    this.name = "FolderLockedError";
  }
}

interface Held {
  server: net.Server;
  users: number;
}

// On globalThis: Next.js dev reloads modules, and a reloaded module must find the lock this
// process already holds rather than refuse its own folder.
const held = ((globalThis as { __threadkeeperFolderLocks?: Map<string, Held> }).__threadkeeperFolderLocks ??= new Map());

/** How long a holder has to say who it is before the loser gives up asking. */
const ASK_TIMEOUT_MS = 2_000;

function lockAddress(dir: string): { address: string; file: boolean } {
  const key = createHash("sha256").update(realpathSync(dir)).digest("hex").slice(0, 40);
  if (process.platform === "linux") return { address: `\0threadkeeper-data-${key}`, file: false };
  return { address: path.join(os.tmpdir(), `threadkeeper-${key}.lock`), file: true };
}

/**
 * Takes the lock on an existing data folder for this process, or throws FolderLockedError naming
 * the holder. Resolves with the release; the lock is this process's until every taker released it.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  const { address, file } = lockAddress(dir);
  let entry = held.get(address);
  if (!entry) {
    entry = { server: await listenOrName(dir, address, file), users: 0 };
    held.set(address, entry);
  }
  entry.users += 1;
  const mine = entry;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    mine.users -= 1;
    if (mine.users > 0 || held.get(address) !== mine) return;
    held.delete(address);
    await new Promise<void>((resolve) => mine.server.close(() => resolve()));
  };
}

async function listenOrName(dir: string, address: string, file: boolean): Promise<net.Server> {
  const me: LockHolder = { pid: process.pid, since: new Date().toISOString(), command: process.argv.slice(1, 3).map((a) => path.basename(a)).join(" ") };
  for (let attempt = 0; ; attempt++) {
    const server = await listen(address, JSON.stringify(me));
    if (server) return server;
    const answer = await ask(address);
    if (answer === "nobody" && attempt === 0) {
      // A crashed holder's socket file (nothing listens on it any more), or a holder that let go
      // between our two calls.
      if (file) unlinkSync(address);
      continue;
    }
    throw new FolderLockedError(dir, answer === "nobody" ? null : answer);
  }
}

/** Listens on the address (the lock is ours), or null when it is taken. */
function listen(address: string, whoAmI: string): Promise<net.Server | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      socket.on("error", () => {});
      socket.end(whoAmI);
    });
    server.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? resolve(null) : reject(err)));
    server.listen(address, () => {
      // The lock must never be what keeps a process alive.
      server.unref();
      resolve(server);
    });
  });
}

/** The holder's own words; "nobody" when nothing listens; null when it did not answer in time. */
function ask(address: string): Promise<LockHolder | "nobody" | null> {
  return new Promise((resolve) => {
    let text = "";
    const socket = net.connect(address);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, ASK_TIMEOUT_MS);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(parseHolder(text));
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(err.code === "ECONNREFUSED" || err.code === "ENOENT" ? "nobody" : null);
    });
  });
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    return typeof v.pid === "number" ? { pid: v.pid, since: String(v.since ?? "?"), command: String(v.command ?? "?") } : null;
  } catch {
    return null;
  }
}
