import { defineConfig } from "vitest/config";
import path from "node:path";

// The real-PostgreSQL suite (npm run test:pg): kept apart from vitest.config.mts so that
// `npm run test:integration` stays on PGlite and never needs a PostgreSQL server.
const root = path.resolve(import.meta.dirname, "..", "..");

export default defineConfig({
  root,
  resolve: { alias: { "@": root, "server-only": path.join(root, "node_modules/server-only/empty.js") } },
  test: {
    environment: "node",
    include: ["tests/pg/**/*.test.ts"],
    globalSetup: ["tests/pg/global-setup.ts"],
    // One cluster and two app servers on a 2-core machine: one file at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
