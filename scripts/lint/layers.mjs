// The import-boundary rule: imports only point down the layer table below.
// The table is the one place the layers are written down for the linter; the prose is in
// docs/architecture.md#layers. Run by `npm run lint` (see eslint.config.mjs).
import fs from "node:fs";
import path from "node:path";

/** Server layers, lowest first. A file may import its own layer (any folder of it) or lower ones. */
export const LAYERS = [
  { layer: 0, paths: ["lib/contract/**", "lib/models.ts", "lib/env.ts", "lib/mode.ts", "lib/errors.ts", "lib/log.ts", "lib/redact.ts", "lib/request-context.ts", "lib/metrics.ts", "lib/tracing.ts", "lib/shutdown.ts"] },
  { layer: 1, paths: ["lib/context/**", "lib/tokens/**", "lib/files/**", "lib/canvas/**", "lib/memory/**", "lib/import/**", "lib/export/**"] },
  { layer: 2, paths: ["lib/db/**", "lib/llm/**", "lib/storage/**"] },
  { layer: 3, paths: ["lib/operations/**", "lib/auth/**", "lib/keys/**", "lib/limits/**", "lib/audit/**", "lib/webhooks/**", "lib/usage/**", "lib/search/**"] },
  { layer: 4, paths: ["lib/turn/**"] },
  { layer: 5, paths: ["lib/api/**", "lib/mcp/**"] },
  { layer: 6, paths: ["app/**", "middleware.ts", "instrumentation.ts"] },
];
/** Browser code: beside the layers; it may import only these server layers, and itself. */
export const CLIENT = { paths: ["lib/client/**", "components/**"], maxServerLayer: 1 };
/** Only this layer (app/) may import browser code. */
const APP_LAYER = 6;
const SEE = "see docs/architecture.md#layers";
/** Server layers whose modules must never reach a browser bundle: each starts with `import "server-only"`. */
const SERVER_ONLY_LAYERS = [2, 3, 4, 5];
/** Imported by middleware.ts (the edge runtime) and pure: left unmarked. */
const EDGE_SAFE = ["lib/auth/session-cookie.ts", "lib/api/edge.ts", "lib/api/security-headers.ts"];

/** "lib/db/**" matches lib/db and everything under it; "lib/env.ts" matches lib/env(.ts|.tsx). */
function matches(pattern, file) {
  if (pattern.endsWith("/**")) {
    const dir = pattern.slice(0, -3);
    return file === dir || file.startsWith(dir + "/");
  }
  const stem = (p) => p.replace(/\.(d\.ts|ts|tsx)$/, "");
  return stem(pattern) === stem(file);
}

/**
 * Where a repo path sits: { side: "server", layer, name } | { side: "client", name } | null
 * (outside the table: scripts/, tests/, config files, and lib files nobody placed yet).
 * `name` is the table entry without lib/ and /** ("db", "turn", "env.ts", "app").
 * @param {string} file repo-relative, forward slashes
 */
export function placeOf(file) {
  const label = (p) => p.replace(/^lib\//, "").replace(/\/\*\*$/, "");
  const client = CLIENT.paths.find((p) => matches(p, file));
  if (client) return { side: "client", name: label(client) };
  for (const { layer, paths } of LAYERS) {
    const hit = paths.find((p) => matches(p, file));
    if (hit) return { side: "server", layer, name: label(hit) };
  }
  return null;
}

const EXTENSIONS = ["", ".ts", ".tsx", ".d.ts", "/index.ts", "/index.tsx"];

/**
 * A specifier to a repo path: `@/x` (tsconfig's alias for the repo root) and `./x`, `../x`;
 * null for packages. The path is the file on disk if there is one, else the specifier's path
 * as written (a module that does not exist yet still has a place in the table).
 * @param {string} root absolute repo root  @param {string} fromFile absolute importing file
 * @param {string} specifier
 */
export function resolveImport(root, fromFile, specifier) {
  let abs;
  if (specifier.startsWith("@/")) abs = path.join(root, specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") abs = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  const found = EXTENSIONS.map((ext) => abs + ext).find((p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile());
  return path.relative(root, found ?? abs).split(path.sep).join("/");
}

/**
 * Every module specifier a file's AST names, with the node to report on: imports (type-only
 * included), export-from, import() with a literal, `import("x").T` types, `import x = require("x")`.
 * @param {(source: import("estree").Node, specifier: string) => void} visit
 */
export function importVisitors(visit) {
  const literal = (node) => {
    if (node?.type === "Literal" && typeof node.value === "string") visit(node, node.value);
    else if (node?.type === "TemplateLiteral" && node.expressions.length === 0) visit(node, node.quasis[0].value.cooked);
  };
  return {
    ImportDeclaration: (n) => literal(n.source),
    ExportNamedDeclaration: (n) => literal(n.source),
    ExportAllDeclaration: (n) => literal(n.source),
    ImportExpression: (n) => literal(n.source),
    TSImportType: (n) => literal(n.source), // `import("x").T`
    TSExternalModuleReference: (n) => literal(n.expression),
  };
}

const describe = (file, place) => (place.side === "client" ? `${file} (client)` : `${file} (${place.name}, layer ${place.layer})`);

/** Why `from` may not import `to`, or null if it may. Both are places (to may be null). */
function violation(from, to, toFile) {
  if (from.side === "server") {
    if (!to) return null; // an unplaced lib file is reported at the file itself
    if (to.side === "client") return from.layer === APP_LAYER ? null : "only app/ may import browser code";
    return to.layer > from.layer ? "imports only point down" : null;
  }
  // Browser code: an allow-list, so an unplaced lib module is refused too.
  if (!to) return toFile.startsWith("lib/") ? "browser code imports only layers 0–1, lib/client and components" : null;
  if (to.side === "client") return from.name === "client" && to.name === "components" ? "lib/client must not import components" : null;
  return to.layer > CLIENT.maxServerLayer ? "browser code imports only layers 0–1, lib/client and components" : null;
}

/** @type {import("eslint").Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "Imports point only down the layer table in scripts/lint/layers.mjs" },
    schema: [{ type: "object", properties: { root: { type: "string" } }, additionalProperties: false }],
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join("/");
    const from = placeOf(file);
    if (!from) {
      if (!file.startsWith("lib/")) return {}; // scripts/, tests/, config: outside the layers
      return {
        Program: (node) =>
          context.report({ node, loc: { line: 1, column: 0 }, message: `${file} is in no layer: add its folder to the layer table in scripts/lint/layers.mjs — ${SEE}` }),
      };
    }
    let marked = false;
    const visitors = importVisitors((node, specifier) => {
      if (specifier === "server-only") marked = true;
      const toFile = resolveImport(root, context.filename, specifier);
      if (!toFile || toFile === file) return;
      const to = placeOf(toFile);
      const why = violation(from, to, toFile);
      if (why) context.report({ node, message: `${describe(file, from)} imports ${to ? describe(toFile, to) : `${toFile} (in no layer)`}: ${why} — ${SEE}` });
    });
    if (from.side === "server" && SERVER_ONLY_LAYERS.includes(from.layer) && !EDGE_SAFE.includes(file)) {
      visitors["Program:exit"] = (node) => {
        if (!marked) {
          const message = `${describe(file, from)} is server code: start it with import "server-only" so no browser bundle can include it — ${SEE}`;
          context.report({ node, loc: { line: 1, column: 0 }, message });
        }
      };
    }
    return visitors;
  },
};
