import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  // `server-only` throws outside a React server build; tests run server modules in plain Node.
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js") } },
  // tsconfig.json keeps JSX for Next.js to compile; tests that render components need it compiled here.
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    environment: "node",
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    // Uploaded files go to a temporary folder, never the repository's data/ (tests/setup/files-dir.ts).
    setupFiles: ["tests/setup/files-dir.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration files each boot their own PGlite; two cores, so keep parallelism modest.
    maxWorkers: 2,
  },
});
