// Starts one throwaway PostgreSQL 15 cluster for the whole suite, prepares it like a Supabase
// project, applies the migrations through the app's own runner, and makes sure there is a
// Next.js build for the app instances. Skips the suite (saying so on stdout) when PostgreSQL 15
// or pgvector is missing.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { fromPostgres } from "@/lib/db/driver";
import { prepare } from "@/lib/db";
import { applyFixture, missingPrerequisite, startCluster, SUPERUSER } from "./cluster";
import { APP_ROLE, type PgContext } from "./context";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = missingPrerequisite();
  if (missing) {
    const message = `real PostgreSQL suite SKIPPED: ${missing}; .ci/run installs it (postgresql-15, then .ci/install-pgvector)`;
    console.log(message);
    project.provide("pg", { available: false, reason: message });
    return async () => console.log(message);
  }

  await ensureBuild();
  const cluster = await startCluster();
  try {
    await applyFixture(cluster.url(SUPERUSER));
    const db = fromPostgres(postgres(cluster.url(APP_ROLE), { max: 2, onnotice: () => {} }));
    try {
      await prepare(db, false);
    } finally {
      await db.close();
    }
  } catch (err) {
    const log = await cluster.log().catch(() => "");
    await cluster.stop();
    throw new Error(`preparing the PostgreSQL cluster failed: ${String(err)}\n--- server log ---\n${log}`);
  }
  console.log(`real PostgreSQL suite: PostgreSQL 15 cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
  const context: PgContext = {
    available: true,
    port: cluster.port,
    superuserUrl: cluster.url(SUPERUSER),
    appUrl: cluster.url(APP_ROLE),
  };
  project.provide("pg", context);
  return () => cluster.stop();
}

/**
 * `npm test` builds in its e2e step just before this suite and the instances reuse that build;
 * run alone, the suite builds first (also when a build without THREADKEEPER_STANDALONE=1, such as
 * `npm start`'s, lacks the standalone server that standalone.test.ts runs).
 */
async function ensureBuild(): Promise<void> {
  const next = path.join(ROOT, ".next");
  if (existsSync(path.join(next, "BUILD_ID")) && existsSync(path.join(next, "standalone", "server.js"))) return;
  console.log("real PostgreSQL suite: no .next/BUILD_ID or .next/standalone/server.js, running next build first");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], {
      cwd: ROOT,
      // The standalone output too (next.config.ts), which standalone.test.ts runs.
      env: { ...process.env, THREADKEEPER_STANDALONE: "1" },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))));
  });
}
