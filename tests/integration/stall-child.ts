// A process that stalls inside a "database call" the way PGlite does (its main thread busy, its
// event loop stopped), for tests/integration/db-watchdog.test.ts. argv: stall ms, limit ms, "long"?
import { dbCallEnded, dbCallStarted, startWatchdog } from "@/lib/db/watchdog";

const [stallMs, limitMs, mode] = process.argv.slice(2);
startWatchdog({ limitMs: Number(limitMs), dataDir: process.cwd(), json: false });
const long = mode === "long";
// A turn of the loop first, so the heartbeat is fresh as it is in a running server.
setTimeout(() => {
  if (mode !== "idle") dbCallStarted(long);
  const until = Date.now() + Number(stallMs);
  while (Date.now() < until) {
    // Spinning, as PGlite does in its WASM.
  }
  if (mode !== "idle") dbCallEnded(long);
  process.stdout.write("survived\n");
  process.exit(0);
}, 50);
