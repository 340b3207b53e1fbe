import { defineConfig } from "vitest/config";
import path from "node:path";

// The reliability suite (npm run test:reliability): the built app (`next build` first) started
// as a user starts it, on its embedded database, and treated as a careless or hostile user would.
const root = path.resolve(import.meta.dirname, "..", "..");

export default defineConfig({
  root,
  resolve: { alias: { "@": root, "server-only": path.join(root, "node_modules/server-only/empty.js") } },
  test: {
    environment: "node",
    include: ["tests/reliability/**/*.test.ts"],
    // Each file starts app servers of its own; on two cores, one file at a time.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
