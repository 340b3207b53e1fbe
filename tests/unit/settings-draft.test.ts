// The settings form's draft: fractions shown as percents and back, and the bounds checked before
// the round trip (the canvas fields among them).
import { describe, expect, it } from "vitest";
import type { ContextSettings } from "@/lib/contract";
import { DEFAULT_SETTINGS } from "@/lib/contract/settings";
import { fromDraft, toDraft, validate } from "@/lib/client/settings-draft";

const settings: ContextSettings = { ...DEFAULT_SETTINGS, model: "claude-haiku-4-5" };

describe("settings draft", () => {
  it("shows the canvas budget as a percent and saves it as a fraction, with the canvas tools switch", () => {
    const draft = toDraft({ ...settings, canvas_tools: false, canvas_budget: 0.075 });
    expect(draft.canvasTools).toBe(false);
    expect(draft.canvasBudget).toBe("7.5");
    expect(fromDraft({ ...draft, canvasTools: true, canvasBudget: "12" })).toMatchObject({ canvas_tools: true, canvas_budget: 0.12 });
  });

  it("keeps the canvas budget within what the server accepts (1–30 %)", () => {
    const draft = toDraft(settings);
    expect(validate(draft)).toBeNull();
    expect(validate({ ...draft, canvasBudget: "31" })).toBe("Canvas budget must be between 1% and 30%.");
    expect(validate({ ...draft, canvasBudget: "0.5" })).toBe("Canvas budget must be between 1% and 30%.");
    expect(validate({ ...draft, canvasBudget: "" })).toMatch(/^Canvas budget/);
  });
});
