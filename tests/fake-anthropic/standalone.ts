import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Starts a fake server when its module is the process entry point (`npx tsx <file>`), as
 * Playwright's webServer does, and closes it on SIGINT/SIGTERM; imported by tests, it does nothing.
 */
export function runIfEntry(moduleUrl: string, start: () => Promise<{ close(): Promise<void> }>): void {
  const entry = process.argv[1];
  if (!entry || path.resolve(entry) !== fileURLToPath(moduleUrl)) return;
  start().then(
    (server) => {
      const shutdown = (): void => {
        void server.close().finally(() => process.exit(0));
      };
      process.once("SIGINT", shutdown);
      process.once("SIGTERM", shutdown);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
