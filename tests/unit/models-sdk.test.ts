// The installed Anthropic SDK names the models the API serves. Every one of them must resolve
// in the registry, so an SDK upgrade that names a new model fails here until it gets a row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getModel } from "@/lib/models";

const declarations = readFileSync(
  path.resolve(__dirname, "../../node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts"),
  "utf8",
);

/** The string literals of `export type Model = 'a' | 'b' | (string & {});`. */
function sdkModelIds(): string[] {
  const union = /export type Model = ([^;]+);/.exec(declarations)?.[1];
  if (!union) throw new Error("the SDK no longer declares `export type Model`; update this test's pattern");
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

describe("the installed SDK's Model union", () => {
  const ids = sdkModelIds();

  it("is read from the declaration file", () => {
    // Guards against the pattern silently matching nothing or something else.
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toContain("claude-sonnet-4-5");
    expect(ids.every((id) => id.startsWith("claude-"))).toBe(true);
  });

  it("names only models the registry knows", () => {
    expect(ids.filter((id) => getModel(id) === undefined)).toEqual([]);
  });

  it("resolves each dated id to the row of its undated id", () => {
    for (const id of ids.filter((i) => /-\d{8}$/.test(i))) {
      expect(getModel(id)?.id, id).toBe(id.replace(/-\d{8}$/, ""));
    }
  });
});
