import { describe, expect, it } from "vitest";
import { usd } from "@/lib/client/format";

describe("money", () => {
  it("has one format everywhere: cents, small costs to two significant digits, large ones whole", () => {
    expect(usd(0)).toBe("$0.00");
    expect(usd(0.0042)).toBe("$0.0042");
    expect(usd(0.00012345)).toBe("$0.00012");
    expect(usd(1.234)).toBe("$1.23");
    expect(usd(1234.5)).toBe("$1,235");
  });
});
