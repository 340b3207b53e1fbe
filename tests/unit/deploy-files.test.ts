// The deployment files agree with the code they deploy: the compose database is prepared exactly
// as the real-PostgreSQL suite prepares its cluster, the image's build context keeps what the
// build and the runner stage need, and the health checks ask the health endpoint.
// (tests/pg/standalone.test.ts runs the runner stage's layout for real.)
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { config as middleware } from "@/middleware";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const read = (file: string) => readFile(path.join(ROOT, file), "utf8");

describe("deployment files", () => {
  it("the compose database runs the PostgreSQL suite's Supabase fixture, the same file", async () => {
    expect(await read("tests/pg/cluster.ts")).toContain('"deploy", "postgres", "10-supabase-roles.sql"');
    const compose = await read("compose.yml");
    expect(compose).toContain("./deploy/postgres:/docker-entrypoint-initdb.d:ro");
    expect(compose).toContain("image: pgvector/pgvector:pg15");
    // The app connects as the suite's app role, never as the superuser.
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/postgres:/);
  });

  it("the build context keeps the sources, public/ and the migrations, and leaves out local state", async () => {
    const ignored = (await read(".dockerignore")).split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    for (const kept of ["app", "components", "lib", "public", "supabase", "scripts", "package.json", "package-lock.json", "next.config.ts"]) {
      expect(ignored, kept).not.toContain(kept);
    }
    for (const left of ["node_modules", ".next", "data", ".env", ".git"]) expect(ignored, left).toContain(left);
  });

  it("the image and the compose services check /api/health, and the middleware never redirects it", async () => {
    expect(await read("Dockerfile")).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\([^\n]*\/api\/health/m);
    // middleware.ts runs on pages only: its matcher skips every /api path, so SaaS mode's sign-in
    // redirect never reaches a load balancer's health check.
    const matcher = new RegExp(`^${middleware.matcher[0]}$`);
    expect(matcher.test("/api/health")).toBe(false);
    expect(matcher.test("/dashboard")).toBe(true);
  });

  // `next start` reads next.config.ts again and warns that it "does not work with output:
  // standalone": only the image's build (and the suites that run its server) asks for it.
  it("the standalone output only when THREADKEEPER_STANDALONE=1, which the image's build stage sets", async () => {
    const output = async (flag: string | undefined) => {
      vi.resetModules();
      vi.stubEnv("THREADKEEPER_STANDALONE", flag);
      try {
        return (await import("@/next.config")).default.output;
      } finally {
        vi.unstubAllEnvs();
      }
    };
    expect(await output(undefined)).toBeUndefined();
    expect(await output("1")).toBe("standalone");
    const dockerfile = await read("Dockerfile");
    const build = dockerfile.slice(dockerfile.search(/^FROM \S+ AS build$/m), dockerfile.search(/^FROM \S+ AS runner$/m));
    expect(build).toMatch(/THREADKEEPER_STANDALONE=1/);
    const scripts = (JSON.parse(await read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toMatch(/^next start /);
    expect(scripts.start).not.toContain("THREADKEEPER_STANDALONE");
  });
});
