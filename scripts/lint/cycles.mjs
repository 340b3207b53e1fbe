// No import circles, type-only imports included. A circle is a property of the whole graph, not
// of one file, so the rule reads every module's imports once with TypeScript's own scanner
// (ts.preProcessFile: imports, `import type`, export-from, import(), no parsing or type checking;
// the ~550 files take well under a second) and reports, in each file on a circle, the imports
// that lead back to it.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { importVisitors, resolveImport } from "./layers.mjs";

/** What the graph covers: the app's code (scripts/ and tests/ import it but are never imported). */
export const GRAPH_ROOTS = ["lib", "app", "components", "middleware.ts", "instrumentation.ts"];

function sourceFiles(root, rel) {
  const abs = path.join(root, rel);
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return /\.tsx?$/.test(rel) ? [rel] : [];
  return fs.readdirSync(abs).flatMap((name) => sourceFiles(root, `${rel}/${name}`));
}

/**
 * The import graph: repo path -> the repo paths it imports (only files in the graph).
 * @param {string} root absolute repo root
 * @returns {Map<string, string[]>}
 */
export function importGraph(root, roots = GRAPH_ROOTS) {
  const files = roots.flatMap((r) => sourceFiles(root, r));
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const abs = path.join(root, file);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(abs, "utf8"), true, true);
    const targets = importedFiles.map((f) => resolveImport(root, abs, f.fileName)).filter((t) => t && known.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles: strongly connected components of more than one file, or a file importing itself
 * (Tarjan's algorithm, iterative so a deep graph cannot overflow the stack).
 * @param {Map<string, string[]>} graph
 * @returns {string[][]}
 */
export function findCycles(graph) {
  const index = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
  };
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    visit(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          visit(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1]?.[0];
      if (parent !== undefined) low.set(parent, Math.min(low.get(parent), low.get(v)));
      if (low.get(v) !== index.get(v)) continue;
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || edges.includes(v)) out.push(scc.sort());
    }
  }
  return out;
}

/** The shortest import path from `from` to `to` (both included), or null. */
export function pathBetween(graph, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) {
      const route = [];
      for (let at = v; at !== null; at = previous.get(at)) route.unshift(at);
      return route;
    }
    for (const w of graph.get(v) ?? []) {
      if (previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  return null;
}

// One graph per root, shared by every file of a lint run; rebuilt when older than a few seconds
// so an editor's long-running ESLint sees edits.
const cache = new Map();
function cachedGraph(root) {
  const hit = cache.get(root);
  if (hit && Date.now() - hit.at < 5000) return hit;
  const graph = importGraph(root);
  const onCycle = new Set(findCycles(graph).flat());
  const fresh = { at: Date.now(), graph, onCycle };
  cache.set(root, fresh);
  return fresh;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noCycleRule = {
  meta: {
    type: "problem",
    docs: { description: "No import circles, type-only imports included" },
    schema: [{ type: "object", properties: { root: { type: "string" } }, additionalProperties: false }],
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join("/");
    const { graph, onCycle } = cachedGraph(root);
    if (!onCycle.has(file)) return {};
    return importVisitors((node, specifier) => {
      const target = resolveImport(root, context.filename, specifier);
      if (!target || !onCycle.has(target)) return;
      const back = pathBetween(graph, target, file);
      if (back) context.report({ node, message: `${file} imports ${target}, which imports it back: ${back.join(" → ")} (import circle; type-only imports count too)` });
    });
  },
};
