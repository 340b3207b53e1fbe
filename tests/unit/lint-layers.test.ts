// The linter's own rules, run through ESLint's Node API with the project's eslint.config.mjs on
// virtual files: a deliberate violation must fail, the allowed import must pass.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

/** The messages ESLint gives a file that would live at `filePath`, as "rule: message". */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}
const SERVER_ONLY = 'start it with import "server-only"';
const layerMessages = async (filePath: string, code: string) =>
  (await lint(filePath, code)).filter((m) => m.startsWith("threadkeeper/layers:") && !m.includes(SERVER_ONLY));
const serverOnlyMessages = async (filePath: string, code: string) => (await lint(filePath, code)).filter((m) => m.includes(SERVER_ONLY));

describe("import-boundary rule (threadkeeper/layers)", () => {
  it("asks every module of the server layers (db up to the edge) to say it is server-only", async () => {
    const code = 'import { getDb } from "@/lib/db";\nexport const d = getDb;\n';
    expect(await serverOnlyMessages("lib/operations/x.ts", code)).toEqual([
      `threadkeeper/layers: lib/operations/x.ts (operations, layer 3) is server code: ${SERVER_ONLY} so no browser bundle can include it — see docs/architecture.md#layers`,
    ]);
    expect(await serverOnlyMessages("lib/operations/x.ts", `import "server-only";\n${code}`)).toEqual([]);
    // The pure engine and the leaves are shared with the browser; the edge-safe modules with the middleware.
    expect(await serverOnlyMessages("lib/context/x.ts", "export const a = 1;\n")).toEqual([]);
    expect(await serverOnlyMessages("lib/api/edge.ts", "export const a = 1;\n")).toEqual([]);
  });

  it("reports an import that points up a layer, naming both files and layers", async () => {
    const messages = await layerMessages("lib/db/x.ts", 'import { send } from "@/lib/turn/send";\nexport const y = send;\n');
    expect(messages).toHaveLength(1);
    // lib/turn/send does not exist yet: the rule names the module as written until it does.
    expect(messages[0]).toMatch(
      /^threadkeeper\/layers: lib\/db\/x\.ts \(db, layer 2\) imports lib\/turn\/send(\.ts)? \(turn, layer 4\): imports only point down — see docs\/architecture\.md#layers$/,
    );
  });

  it("lets imports point down or stay in their layer, relative or through @/", async () => {
    const code = [
      'import { a } from "@/lib/db/sessions";',
      'import { b } from "../context/capacity";',
      'import type { C } from "@/lib/env";',
      'import { d } from "@/lib/search/history";', // another folder of the same layer
      'import { z } from "zod";',
      "export const all: [unknown, unknown, C | null, unknown, unknown] = [a, b, null, d, z];",
    ].join("\n");
    expect(await layerMessages("lib/operations/x.ts", code)).toEqual([]);
  });

  it("counts type-only imports, export-from and import() too", async () => {
    const code = [
      'import type { Turn } from "@/lib/turn/send";',
      'export { handler } from "../api/http";',
      'export * from "@/lib/turn/stop";',
      'export const later = () => import("@/lib/api/sse");',
      "export type T = Turn | import(\"@/lib/turn/send\").Other;",
    ].join("\n");
    const messages = await layerMessages("lib/db/x.ts", code);
    expect(messages).toHaveLength(5);
    for (const m of messages) expect(m).toContain("imports only point down");
  });

  it("keeps browser code to leaves, the pure engine, lib/client and components", async () => {
    const [db] = await layerMessages("components/chat/X.tsx", 'import type { Db } from "@/lib/db";\nexport type T = Db;\n');
    expect(db).toMatch(/components\/chat\/X\.tsx \(client\) imports lib\/db(\/index\.ts)? \(db, layer 2\): browser code imports only layers 0–1/);
    expect(await layerMessages("lib/client/x.ts", 'import { run } from "@/lib/operations/send";\nexport const r = run;\n')).toHaveLength(1);
    expect(await layerMessages("lib/client/x.ts", 'import { B } from "@/components/ui/MenuButton";\nexport const b = B;\n')).toEqual([
      expect.stringContaining("lib/client must not import components"),
    ]);
    const allowed = 'import { w } from "@/lib/context/window";\nimport { s } from "@/lib/client/sse";\nimport { m } from "../ui/MenuButton";\nexport const all = [w, s, m];\n';
    expect(await layerMessages("components/chat/X.tsx", allowed)).toEqual([]);
  });

  it("lets only app/ import browser code, and lets app/ import every layer", async () => {
    expect(await layerMessages("lib/api/x.ts", 'import { s } from "@/lib/client/sse";\nexport const y = s;\n')).toEqual([
      expect.stringContaining("only app/ may import browser code"),
    ]);
    const app = 'import { h } from "@/lib/api/http";\nimport { W } from "@/components/chat/Workspace";\nexport const all = [h, W];\n';
    expect(await layerMessages("app/x/page.tsx", app)).toEqual([]);
  });

  it("reports a lib file that is in no layer, and leaves scripts/ and tests/ alone", async () => {
    expect(await layerMessages("lib/newthing/x.ts", "export const x = 1;\n")).toEqual([
      expect.stringContaining("lib/newthing/x.ts is in no layer"),
    ]);
    expect(await layerMessages("tests/unit/x.test.ts", 'import { send } from "@/lib/turn/send";\nexport const y = send;\n')).toEqual([]);
  });
});

describe("the rest of the lint", () => {
  it("reports `any` in lib/", async () => {
    expect(await lint("lib/context/x.ts", "export function f(v: any) {\n  return v;\n}\n")).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-explicit-any: /),
    ]);
  });

  it("reports unused variables and imports, not `_` arguments or rest siblings", async () => {
    const code = [
      'import { z } from "zod";',
      "export function f(_kind: string, o: { id: string; n: number }) {",
      "  const unused = 1;",
      "  const { id: _id, ...rest } = o;",
      "  return rest;",
      "}",
    ].join("\n");
    const messages = await lint("lib/context/x.ts", code);
    expect(messages).toEqual([
      "@typescript-eslint/no-unused-vars: 'z' is defined but never used.",
      "@typescript-eslint/no-unused-vars: 'unused' is assigned a value but never used.",
    ]);
  });
});

describe("import-circle rule (threadkeeper/no-cycle)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lint-cycle-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a planted circle made of a value import and a type-only import", async () => {
    const files: Record<string, string> = {
      "lib/a.ts": 'import { b } from "./b";\nexport type A = number;\nexport const a = () => b;\n',
      "lib/b.ts": 'import type { A } from "@/lib/a";\nexport const b: A = 1;\n',
      "lib/c.ts": 'import { a } from "./a";\nexport const c = a;\n', // imports the circle, is not on it
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    // The rule exactly as the project's config registers it, run over the temp folder.
    const { plugins } = (await eslint.calculateConfigForFile("lib/x.ts")) as Linter.Config;
    const planted = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { threadkeeper: plugins!.threadkeeper },
        rules: { "threadkeeper/no-cycle": ["error", { root: dir }] },
      },
    });
    const results = await planted.lintFiles(["lib"]);
    const byFile = Object.fromEntries(results.map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => m.message)]));
    expect(byFile).toEqual({
      "lib/a.ts": ["lib/a.ts imports lib/b.ts, which imports it back: lib/b.ts → lib/a.ts (import circle; type-only imports count too)"],
      "lib/b.ts": ["lib/b.ts imports lib/a.ts, which imports it back: lib/a.ts → lib/b.ts (import circle; type-only imports count too)"],
      "lib/c.ts": [],
    });
  });
});
