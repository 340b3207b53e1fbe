// The installed Anthropic SDK names the models the API serves. Every one of them must resolve
// in the registry, so an SDK upgrade that names a new model fails here until it gets a row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { getModel, MODELS, modelLifecycle, modelOptionLabel, pickableModels } from "@/lib/models";

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

// The SDK warns on each request to a model it lists as deprecated, with the day it reaches end
// of life ("November 30th, 2026"). The registry carries the same days, so pickers can say so.
const { DEPRECATED_MODELS } = createRequire(__filename)(
  path.resolve(__dirname, "../../node_modules/@anthropic-ai/sdk/internal/data/deprecated-models.js"),
) as { DEPRECATED_MODELS: Record<string, string> };

const MONTH = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "November 30th, 2026" → "2026-11-30". */
function isoDay(sdkDate: string): string {
  const m = /^(\w+) (\d+)(?:st|nd|rd|th), (\d{4})$/.exec(sdkDate);
  if (!m || !MONTH.includes(m[1])) throw new Error(`the SDK writes end-of-life dates differently now: "${sdkDate}"`);
  return `${m[3]}-${String(MONTH.indexOf(m[1]) + 1).padStart(2, "0")}-${m[2].padStart(2, "0")}`;
}

describe("the installed SDK's end-of-life table", () => {
  it("gives every deprecated model its day in the registry, and the registry no other", () => {
    expect(Object.keys(DEPRECATED_MODELS)).toContain("claude-sonnet-4-5");
    for (const [id, day] of Object.entries(DEPRECATED_MODELS)) {
      expect(getModel(id)?.retires, id).toBe(isoDay(day));
    }
    const sdkRows = new Set(Object.keys(DEPRECATED_MODELS).map((id) => getModel(id)));
    expect(MODELS.filter((m) => m.retires && !sdkRows.has(m)).map((m) => m.id)).toEqual([]);
  });
});

describe("a model's end of life", () => {
  const sonnet45 = getModel("claude-sonnet-4-5")!;
  const before = new Date("2026-11-29T23:59:59Z");
  const on = new Date("2026-11-30T00:00:00Z");

  it("is announced until the day, and from that day the model is retired", () => {
    expect(modelLifecycle(sonnet45, before)).toBe("retiring");
    expect(modelLifecycle(sonnet45, on)).toBe("retired");
    expect(modelLifecycle(getModel("claude-haiku-4-5")!, on)).toBe("current");
    expect(modelOptionLabel(sonnet45, before)).toBe("Claude Sonnet 4.5 · retires 30 Nov 2026");
    expect(modelOptionLabel(sonnet45, on)).toBe("Claude Sonnet 4.5 · retired");
    expect(modelOptionLabel(getModel("claude-haiku-4-5")!, on)).toBe("Claude Haiku 4.5");
  });

  it("takes a retired model out of the pickers, unless it is the one already chosen", () => {
    const ids = (selected: string | null, now: Date) => pickableModels(selected, now).map((m) => m.id);
    expect(ids(null, before)).toContain("claude-sonnet-4-5");
    expect(ids(null, before)).not.toContain("claude-mythos-preview");
    expect(ids(null, on)).not.toContain("claude-sonnet-4-5");
    expect(ids("claude-sonnet-4-5", on)).toContain("claude-sonnet-4-5");
    expect(ids("claude-sonnet-4-5-20250929", on)).toContain("claude-sonnet-4-5");
    expect(ids(null, on).length).toBe(MODELS.length - 2);
  });
});
