// docs/configuration.md lists the context settings; lib/contract/settings.ts declares them. The
// page may explain more, but its names, ranges and defaults must be the declaration's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS, type SettingName } from "@/lib/contract/settings";

const page = readFileSync(path.resolve(__dirname, "../../docs/configuration.md"), "utf8");

/** The table's row for a setting: its cells after the name. */
function row(name: string): string[] | undefined {
  const line = page.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
  return line?.split("|").slice(2, -1).map((c) => c.trim());
}

describe("the settings table in docs/configuration.md", () => {
  const names = Object.keys(SETTINGS) as SettingName[];

  it("has a row for every setting and none for a setting that does not exist", () => {
    expect(names.filter((n) => !row(n))).toEqual([]);
    const documented = [...page.matchAll(/^\| `([a-z_]+)` \| .* \| .* \| .* \|$/gm)].map((m) => m[1]).filter((n) => n.includes("_") || n === "model");
    expect(documented.filter((n) => !(n in SETTINGS))).toEqual([]);
  });

  it("gives each setting its declared range and default", () => {
    for (const name of names) {
      const setting = SETTINGS[name];
      const [range, fallback] = row(name) ?? [];
      if ("min" in setting) expect(range, name).toBe(`${setting.min}–${setting.max}`);
      if (setting.fallback !== null) expect(fallback, name).toBe(`\`${String(setting.fallback)}\``);
    }
    // The one integer range, written out in the table.
    expect(row("memory_ttl_days")?.[0]).toBe(`${SETTINGS.memory_ttl_days.schema.minValue}–${SETTINGS.memory_ttl_days.schema.maxValue}`);
  });
});
