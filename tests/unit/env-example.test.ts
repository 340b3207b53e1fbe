// .env.example lists exactly the variables the app reads: every key of lib/env.ts's schema, and
// the few read elsewhere (named below with the file that reads them). A variable added to
// lib/env.ts without a line in .env.example fails here, and so does a line nobody reads.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const read = (file: string) => readFile(path.join(ROOT, file), "utf8");

/** Variables read outside lib/env.ts, and where (the file must still name them). */
const ELSEWHERE: Record<string, string> = {
  VOYAGE_API_KEY: "lib/memory/embedder.ts",
  VOYAGE_BASE_URL: "lib/memory/embedder.ts",
  // `npm run serve` binds to ${HOST:-127.0.0.1}; Next.js reads PORT.
  HOST: "package.json",
  PORT: "Dockerfile",
  // The standalone server's address (Next.js's server.js reads it; the image sets it).
  HOSTNAME: "Dockerfile",
  // Build time only: standalone output for the image (its build stage sets it).
  THREADKEEPER_STANDALONE: "next.config.ts",
};

/** Set by Node.js and Next.js themselves, not configuration. */
const RUNTIME = new Set(["NODE_ENV", "NEXT_RUNTIME"]);

/** The keys of the `schema` object in lib/env.ts: two-space-indented `NAME:` lines inside `z.object({ … })`. */
async function schemaKeys(): Promise<string[]> {
  const source = await read("lib/env.ts");
  const start = source.indexOf("const schema = z.object({");
  expect(start, "lib/env.ts declares `const schema = z.object({`").toBeGreaterThanOrEqual(0);
  const body = source.slice(start, source.indexOf("\n});", start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
}

/** Every `NAME=` line of .env.example, commented out or not. */
async function exampleKeys(): Promise<string[]> {
  return [...(await read(".env.example")).matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

describe(".env.example", () => {
  it("lists every variable lib/env.ts reads, and those read elsewhere", async () => {
    const keys = await schemaKeys();
    expect(keys.length).toBeGreaterThan(20);
    const listed = new Set(await exampleKeys());
    expect([...keys, ...Object.keys(ELSEWHERE)].filter((k) => !listed.has(k)), "missing from .env.example").toEqual([]);
  });

  it("lists nothing the app does not read, and each variable once, with a line of meaning above it", async () => {
    const known = new Set([...(await schemaKeys()), ...Object.keys(ELSEWHERE)]);
    const listed = await exampleKeys();
    expect(listed.filter((k) => !known.has(k)), "in .env.example but read nowhere").toEqual([]);
    expect(listed.filter((k, i) => listed.indexOf(k) !== i), "listed twice").toEqual([]);
    const lines = (await read(".env.example")).split("\n");
    for (const key of listed) {
      const at = lines.findIndex((l) => new RegExp(`^#? ?${key}=`).test(l));
      expect(lines[at - 1], `${key}: the line above says what it means and its default`).toMatch(/^# .*\(default: .+\)\.$/);
    }
  });

  it("names the files that read the variables outside lib/env.ts correctly", async () => {
    for (const [key, file] of Object.entries(ELSEWHERE)) expect(await read(file), `${key} in ${file}`).toContain(key);
  });

  it("knows every variable the server code reads directly from process.env", async () => {
    const known = new Set([...(await schemaKeys()), ...Object.keys(ELSEWHERE), ...RUNTIME]);
    const { readdir } = await import("node:fs/promises");
    const files = ["middleware.ts", "instrumentation.ts", "next.config.ts"];
    for (const dir of ["lib", "app"]) {
      for (const entry of await readdir(path.join(ROOT, dir), { recursive: true })) {
        if (/\.tsx?$/.test(entry)) files.push(path.join(dir, entry));
      }
    }
    const unknown = new Set<string>();
    for (const file of files) {
      const source = await read(file);
      // process.env.NAME, process.env["NAME"], and the embedder's setting("NAME").
      for (const m of source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[["']([A-Z][A-Z0-9_]*)["']\])|\bsetting\(["']([A-Z][A-Z0-9_]*)["']\)/g)) {
        const name = m[1] ?? m[2] ?? m[3];
        if (!known.has(name) && !(file === "lib/redact.ts" && name === "X")) unknown.add(`${name} (${file})`);
      }
    }
    expect([...unknown]).toEqual([]);
  });
});
