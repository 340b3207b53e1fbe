// The container image's server, without a container: the build's standalone output laid out in
// a temp dir exactly as the Dockerfile's runner stage copies it (the test reads those COPY lines,
// so the two cannot drift apart), started as the image's CMD starts it (`node server.js`, with
// HOSTNAME and PORT from the environment), on the suite's PostgreSQL and then on the embedded
// database. Outside the repo, so nothing resolves from the repo's node_modules: what the
// standalone tracing left out fails here.
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "@/package.json";
import type { HealthJson } from "@/lib/contract/health";
import type { SendResultJson, SessionJson } from "@/lib/contract";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { api, startApp, type AppInstance } from "./app";
import { pgContext, readyPg } from "./context";

const available = pgContext().available;
const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The image's working directory, where the runner stage's COPY destinations are relative to. */
const WORKDIR = "/app";

/** The runner stage's `COPY --from=build [--chown=…] /app/<source> <destination>` lines, as [source, destination] in the image's /app. */
async function imageLayout(): Promise<[string, string][]> {
  const dockerfile = await readFile(path.join(ROOT, "Dockerfile"), "utf8");
  const runner = dockerfile.slice(dockerfile.search(/^FROM \S+ AS runner$/m));
  expect(runner.length, "the Dockerfile has a stage named runner").toBeLessThan(dockerfile.length);
  expect(runner).toMatch(new RegExp(`^WORKDIR ${WORKDIR}$`, "m"));
  expect(runner).toMatch(/^CMD \["node", "server\.js"\]$/m);
  const copies = [...runner.matchAll(/^COPY --from=build (?:--chown=\S+ )?\/app\/(\S+) (\S+)$/gm)].map(
    (m): [string, string] => [m[1].replace(/\/$/, ""), path.posix.normalize(m[2]).replace(/\/$/, "") || "."],
  );
  // Any other COPY in the runner stage would be a file this test does not lay out.
  expect(runner.match(/^COPY /gm)?.length).toBe(copies.length);
  return copies;
}

async function layOut(into: string): Promise<void> {
  for (const [source, destination] of await imageLayout()) {
    await cp(path.join(ROOT, source), path.join(into, destination), { recursive: true, verbatimSymlinks: true });
  }
}

async function latestMigration(): Promise<string | undefined> {
  return (await readdir(path.join(ROOT, "supabase", "migrations"))).filter((f) => f.endsWith(".sql")).sort().at(-1);
}

describe.skipIf(!available)("the standalone server, laid out as the container image", () => {
  let dir: string;
  let fake: FakeAnthropic;
  let app: AppInstance | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "tk-image-"));
    await layOut(dir);
    fake = await startFakeAnthropic();
  });

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const env = () => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url, THREADKEEPER_MODEL: "claude-haiku-4-5" });

  it("holds what the image copies: server.js, the static files, public/, the migrations", async () => {
    const names = await readdir(dir);
    expect(names).toEqual(expect.arrayContaining(["server.js", ".next", "node_modules", "public", "supabase", "package.json"]));
    // Tracing copies only files under the project: a node_modules that is a symlink to another
    // checkout's (a git worktree's shortcut) leaves Next.js itself out of the output.
    expect(
      existsSync(path.join(dir, "node_modules", "next", "package.json")),
      "the standalone output has no node_modules/next: is node_modules a symlink to outside the project? Build with a real one",
    ).toBe(true);
    expect((await readdir(path.join(dir, ".next", "static"))).length).toBeGreaterThan(0);
    expect(await readdir(path.join(dir, "supabase", "migrations"))).toContain(await latestMigration());
  });

  async function converse(on: AppInstance): Promise<void> {
    const explain = (what: string) => `${what}\n--- ${on.name} ---\n${on.output().slice(-4000)}`;
    const health = await api<HealthJson>(on, "GET", "/api/health");
    expect(health.status, explain(JSON.stringify(health.body))).toBe(200);
    expect(health.body).toEqual({ status: "ok", database: "ok", migration: await latestMigration(), version: pkg.version });
    const created = await api<{ session: SessionJson }>(on, "POST", "/api/session", { title: "From the image" });
    expect(created.status, explain(JSON.stringify(created.body))).toBe(201);
    const id = created.body.session.id;
    const sent = await api<SendResultJson>(on, "POST", `/api/session/${id}/messages`, { content: "[[reply:Hello from the fake.]] Hello?" });
    expect(sent.status, explain(JSON.stringify(sent.body))).toBe(201);
    expect(sent.body.assistant_message?.text).toBe("Hello from the fake.");
    // The browser's files: a built chunk (.next/static) and an icon (public/).
    const chunks = await readdir(path.join(dir, ".next", "static", "chunks"));
    const chunk = chunks.find((f) => f.endsWith(".js"));
    for (const file of [`/_next/static/chunks/${chunk}`, "/icon.svg"]) {
      const res = await fetch(`${on.base}${file}`);
      expect(res.status, file).toBe(200);
      await res.arrayBuffer();
    }
  }

  it("`node server.js` on PostgreSQL: healthy with the latest migration, then a session and a reply", async () => {
    app = await startApp("standalone on PostgreSQL", readyPg().appUrl, env(), { standaloneDir: dir });
    await converse(app);
    await app.stop();
    app = undefined;
  });

  it("`node server.js` without DATABASE_URL: the embedded database (PGlite's WASM and pgvector were traced in)", async () => {
    app = await startApp("standalone on PGlite", "", { ...env(), THREADKEEPER_DATA_DIR: path.join(dir, "data", "pglite") }, { standaloneDir: dir });
    await converse(app);
    await app.stop();
    app = undefined;
  });
});
