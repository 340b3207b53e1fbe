// Runs a command with TMPDIR set to a folder of its own, then deletes that folder, whatever the
// command's outcome: the suites' data folders, databases, servers' files and exported ZIPs
// (every os.tmpdir() of every process they start) go with it instead of piling up in /tmp.
// Usage: node scripts/with-temp.mjs <command> [args...]; exits with the command's code.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-temp.mjs <command> [args...]");
  process.exit(2);
}
const dir = mkdtempSync(path.join(os.tmpdir(), "threadkeeper-test-"));
// Traversable by others: the PostgreSQL suite runs its server as an unprivileged user when root.
chmodSync(dir, 0o711);
const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, TMPDIR: dir } });
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
child.on("exit", (code, signal) => {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code ?? (signal ? 1 : 0));
});
