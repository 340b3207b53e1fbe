// Every vitest file gets a file-store folder of its own under the temporary folder, removed when
// the file is done: without it, a test that uploads through the routes (in-memory database, no
// THREADKEEPER_DATA_DIR) would write into the repository's data/ folder (lib/env.ts filesDir()).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

if (!process.env.THREADKEEPER_FILES_DIR) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tk-test-files-"));
  process.env.THREADKEEPER_FILES_DIR = dir;
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (process.env.THREADKEEPER_FILES_DIR === dir) delete process.env.THREADKEEPER_FILES_DIR;
  });
}
