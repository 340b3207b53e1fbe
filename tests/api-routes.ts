// The API's route files, for the tests that must cover every route (cross-tenant table,
// OpenAPI document): a route added without its entry fails them.
import { readdir } from "node:fs/promises";
import path from "node:path";

export const API_DIR = path.join(process.cwd(), "app", "api");

/** Every route.ts under app/api. */
export async function routeFiles(dir = API_DIR): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await routeFiles(full)));
    else if (entry.name === "route.ts") out.push(full);
  }
  return out;
}

/** `app/api/session/[id]/route.ts` -> `/api/session/[id]`. */
export const routeOf = (file: string) => ["/api", ...path.relative(API_DIR, path.dirname(file)).split(path.sep).filter(Boolean)].join("/");
