import { describe, expect, it } from "vitest";
import { describeEvent, elementLine } from "@/lib/canvas/describe";
import { EMPTY_CANVAS, parseElement, type CanvasElement, type CanvasState } from "@/lib/contract/canvas-elements";
import { applyEvent, replay } from "@/lib/canvas/reducer";
import type { CanvasEvent } from "@/lib/contract/canvas";
import { CANVAS_HEADING, canvasSection, memoCounter, userChangesNote } from "@/lib/canvas/section";
import { CANVAS_TOOL_NAMES, CANVAS_TOOLS, canvasCall, generatedId } from "@/lib/canvas/tools";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const card = (id: string, title = `Card ${id}`, body?: string): CanvasElement => ({ id, type: "card", title, ...(body ? { body } : {}) });

function apply(state: CanvasState, event: CanvasEvent): CanvasState {
  const r = applyEvent(state, event);
  if (!r.ok) throw new Error(r.error);
  return r.state;
}

describe("canvas tools", () => {
  it("defines every tool of the reference, each with an object schema", () => {
    expect(CANVAS_TOOLS.map((t) => t.name)).toEqual([...CANVAS_TOOL_NAMES]);
    expect(CANVAS_TOOL_NAMES).toEqual(
      expect.arrayContaining([
        "canvas_add_card",
        "canvas_show_text",
        "canvas_show_chart",
        "canvas_show_table",
        "canvas_play_media",
        "canvas_show_confirmation",
        "canvas_update_card",
        "canvas_remove_element",
        "canvas_set_mode",
        "canvas_show_notification",
        "canvas_set_theme",
      ]),
    );
    for (const t of CANVAS_TOOLS) {
      expect(t.input_schema.type).toBe("object");
      expect(t.input_schema).not.toHaveProperty("$schema");
      expect(t.description.length).toBeGreaterThan(20);
    }
    const card = CANVAS_TOOLS.find((t) => t.name === "canvas_add_card");
    expect(card?.input_schema.required).toEqual(["title"]);
    expect(Object.keys(card?.input_schema.properties as object)).toEqual(["id", "title", "body", "subtitle", "footer"]);
  });

  it("turns a valid call into an event and names elements Claude left unnamed", () => {
    expect(canvasCall("canvas_add_card", { id: "weather", title: "Today's weather", body: "21 °C" }, "toolu_1")).toEqual({
      kind: "event",
      event: { op: "add", element: { id: "weather", type: "card", title: "Today's weather", body: "21 °C" } },
    });
    const unnamed = canvasCall("canvas_show_text", { content: "# Notes" }, "toolu_01AbCdEf12345678");
    expect(unnamed).toEqual({ kind: "event", event: { op: "add", element: { id: "text-12345678", type: "text", content: "# Notes" } } });
    expect(generatedId("chart", "toolu_01XY")).toBe("chart-oolu01xy");
    expect(canvasCall("canvas_set_mode", { mode: "clear" }, "t")).toEqual({ kind: "event", event: { op: "clear" } });
    expect(canvasCall("canvas_set_mode", { mode: "list" }, "t")).toEqual({ kind: "event", event: { op: "layout", layout: "list" } });
    expect(canvasCall("canvas_show_confirmation", { title: "Book it?" }, "t")).toMatchObject({
      event: { element: { options: ["Yes", "No"] } },
    });
  });

  it("keeps ephemeral calls off the canvas", () => {
    expect(canvasCall("canvas_show_notification", { message: "Saved" }, "t")).toEqual({
      kind: "effect",
      effect: { kind: "notification", message: "Saved", level: "info" },
    });
    expect(canvasCall("canvas_set_theme", { theme: "dark" }, "t")).toEqual({ kind: "effect", effect: { kind: "theme", theme: "dark" } });
  });

  it("answers bad input with an error that names the field", () => {
    const bad = (name: string, input: unknown) => {
      const r = canvasCall(name, input, "t");
      if (r.kind !== "error") throw new Error(`expected an error for ${name}`);
      return r.error;
    };
    expect(bad("canvas_add_card", { body: "no title" })).toMatch(/^Invalid input for canvas_add_card: title/);
    expect(bad("canvas_add_card", "text")).toMatch(/expected an object/);
    expect(bad("canvas_add_card", { id: "has space", title: "x" })).toMatch(/id/);
    expect(bad("canvas_show_chart", { chart_type: "line", x_key: "d", y_keys: ["v"], data: [{ d: "Mon", v: "high" }] })).toMatch(
      /data\.0\.v: "v" is a series/,
    );
    expect(bad("canvas_show_chart", { chart_type: "pie", x_key: "d", y_keys: ["a", "b"], data: [{ d: "x", a: 1, b: 2 }] })).toMatch(/pie/);
    expect(bad("canvas_show_table", { columns: ["a", "b"], rows: [["only one"]] })).toMatch(/rows\.0: has 1 cells for 2 columns/);
    expect(bad("canvas_play_media", { media_type: "image", url: "http://example.com/a.png" })).toMatch(/url: an https URL/);
    expect(bad("canvas_play_media", { media_type: "image", url: "javascript:alert(1)" })).toMatch(/url/);
    expect(bad("canvas_update_card", { id: "a" })).toMatch(/at least one field/);
    expect(bad("canvas_set_mode", { mode: "zoom" })).toMatch(/mode/);
    expect(bad("canvas_fly", {})).toMatch(/Unknown canvas tool/);
  });
});

describe("canvas reducer", () => {
  it("adds, replaces by id, updates, removes and clears", () => {
    let s = apply(EMPTY_CANVAS, { op: "add", element: card("a") });
    s = apply(s, { op: "add", element: card("b") });
    s = apply(s, { op: "add", element: card("a", "Card A, again") });
    expect(s.elements.map((e) => [e.id, (e as { title: string }).title])).toEqual([
      ["a", "Card A, again"],
      ["b", "Card b"],
    ]);
    s = apply(s, { op: "update", id: "b", fields: { body: "**new**", type: "chart", id: "zzz" } });
    expect(s.elements[1]).toEqual({ id: "b", type: "card", title: "Card b", body: "**new**" });
    s = apply(s, { op: "remove", id: "a" });
    expect(s.elements.map((e) => e.id)).toEqual(["b"]);
    s = apply(s, { op: "layout", layout: "list" });
    expect(apply(s, { op: "clear" })).toEqual({ layout: "list", elements: [] });
  });

  it("never mutates the state it is given", () => {
    const s = apply(EMPTY_CANVAS, { op: "add", element: card("a") });
    const frozen = JSON.stringify(s);
    apply(s, { op: "update", id: "a", fields: { title: "changed" } });
    apply(s, { op: "remove", id: "a" });
    expect(JSON.stringify(s)).toBe(frozen);
    expect(EMPTY_CANVAS.elements).toHaveLength(0);
  });

  it("refuses unknown ids and updates that break the element", () => {
    const s = apply(EMPTY_CANVAS, { op: "add", element: card("a") });
    expect(applyEvent(s, { op: "remove", id: "nope" })).toEqual({ ok: false, error: 'No element with id "nope" is on the canvas.' });
    expect(applyEvent(s, { op: "update", id: "nope", fields: { title: "x" } })).toMatchObject({ ok: false });
    const broken = applyEvent(s, { op: "update", id: "a", fields: { title: "" } });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/^Update of "a" \(card\) is invalid: title/);
  });

  it("records a confirmation's answer only for one of its options", () => {
    const parsed = parseElement({ id: "q", type: "confirmation", title: "Book it?", options: ["Book", "Wait"] });
    if (!parsed.ok) throw new Error(parsed.error);
    const s = apply(EMPTY_CANVAS, { op: "add", element: parsed.element });
    expect(applyEvent(s, { op: "choose", id: "q", choice: "Maybe" }).ok).toBe(false);
    const chosen = apply(s, { op: "choose", id: "q", choice: "Book" });
    expect(chosen.elements[0]).toMatchObject({ chosen: "Book" });
    expect(elementLine(chosen.elements[0] as CanvasElement)).toContain('the user chose "Book"');
  });

  it("replays a history, skipping an event that no longer applies", () => {
    const events: CanvasEvent[] = [
      { op: "add", element: card("a") },
      { op: "remove", id: "ghost" },
      { op: "add", element: card("b") },
      { op: "remove", id: "a" },
    ];
    expect(replay(events).elements.map((e) => e.id)).toEqual(["b"]);
  });

  it("reset replaces the whole canvas, so a fork's history starts from its checkpoint's canvas", () => {
    const base: CanvasState = { layout: "list", elements: [card("w", "Weather"), { id: "q", type: "confirmation", title: "Go?", options: ["Yes", "No"], chosen: "Yes" }] };
    const s = replay([{ op: "add", element: card("old") }, { op: "reset", state: base }, { op: "add", element: card("n") }]);
    expect(s.layout).toBe("list");
    expect(s.elements.map((e) => e.id)).toEqual(["w", "q", "n"]);
    expect(s.elements[1]).toMatchObject({ chosen: "Yes" });
    expect(describeEvent({ op: "reset", state: base })).toBe("Restored the canvas (2 elements)");
  });

  it("refuses a reset with a bad element, a duplicate id or an unknown layout, leaving the canvas as it was", () => {
    const start = apply(EMPTY_CANVAS, { op: "add", element: card("keep") });
    const bad = (state: unknown) => applyEvent(start, { op: "reset", state: state as CanvasState });
    expect(bad({ layout: "grid", elements: [card("a"), { id: "b", type: "card" }] })).toMatchObject({ ok: false, error: expect.stringMatching(/^Reset element 1: title/) });
    expect(bad({ layout: "grid", elements: [card("a"), card("a")] })).toMatchObject({ ok: false, error: 'Reset has "a" twice.' });
    expect(bad({ layout: "tiles", elements: [] })).toMatchObject({ ok: false, error: 'Unknown layout "tiles".' });
    expect(bad(null)).toMatchObject({ ok: false });
    expect(replay([{ op: "reset", state: { layout: "tiles", elements: [] } as unknown as CanvasState }], start)).toBe(start);
  });
});

describe("canvas section", () => {
  it("is empty for an empty canvas", () => {
    expect(canvasSection(EMPTY_CANVAS, 1_000, estimateTextTokens)).toMatchObject({ text: "", tokens: 0 });
  });

  it("lists every element compactly when it fits", () => {
    const s = apply(EMPTY_CANVAS, { op: "add", element: card("weather-today", "Today's Weather", "72°F, sunny with a light breeze") });
    const section = canvasSection(s, 1_000, estimateTextTokens);
    expect(section.text).toContain(CANVAS_HEADING);
    expect(section.text).toContain('- [card] id="weather-today" title="Today\'s Weather": 72°F, sunny with a light breeze');
    // Counted per line: within a few tokens of counting the whole text.
    expect(Math.abs(section.tokens - estimateTextTokens(section.text))).toBeLessThanOrEqual(6);
    expect(section).toMatchObject({ full: 1, brief: 0, omitted: 0 });
  });

  it("keeps within the budget by listing the oldest by type and id, then only counting them", () => {
    const many = replay(Array.from({ length: 500 }, (_, i): CanvasEvent => ({ op: "add", element: card(`c${i}`, `Card number ${i}`, "lorem ipsum dolor sit amet ".repeat(8)) })));
    const all = canvasSection(many, 1e9, estimateTextTokens);
    expect(all.full).toBe(500);
    for (const budget of [8_000, 2_000, 300]) {
      const s = canvasSection(many, budget, estimateTextTokens);
      expect(s.tokens).toBeLessThanOrEqual(budget);
      expect(estimateTextTokens(s.text)).toBeLessThanOrEqual(budget * 1.02);
      expect(s.full + s.brief + s.omitted).toBe(500);
      expect(s.text).toContain('id="c499"');
      if (s.brief > 0) expect(s.text).toContain("Older elements, by type and id only: ");
    }
    const tight = canvasSection(many, 300, estimateTextTokens);
    expect(tight.omitted).toBeGreaterThan(0);
    expect(tight.text).toMatch(/\(\d+ older elements not listed\.\)/);
  });

  it("counts each line once through a memoizing counter", () => {
    let calls = 0;
    const count = memoCounter((t) => {
      calls++;
      return estimateTextTokens(t);
    });
    const s = replay(Array.from({ length: 50 }, (_, i): CanvasEvent => ({ op: "add", element: card(`c${i}`) })));
    const first = canvasSection(s, 1e6, count);
    const before = calls;
    const changed = apply(s, { op: "update", id: "c7", fields: { title: "Changed" } });
    const second = canvasSection(changed, 1e6, count);
    expect(calls - before).toBe(1); // only the changed line: heading, intro and the other 49 lines were counted before
    expect(second.tokens).not.toBe(0);
    expect(first.full).toBe(50);
  });

  it("tells Claude what the user changed, as a section of its own once the canvas is empty", () => {
    expect(userChangesNote([], true)).toBe("");
    expect(userChangesNote(['Removed "w"'], false)).toBe('\nSince your last reply the user changed the canvas themselves: Removed "w".');
    expect(userChangesNote(['Removed "w"', "Cleared the canvas"], true)).toBe(
      `\n\n${CANVAS_HEADING}\nThe canvas is empty now. Since your last reply the user changed the canvas themselves: Removed "w"; Cleared the canvas.`,
    );
  });

  it("describes changes for the chat", () => {
    expect(describeEvent({ op: "add", element: card("w", "Today's weather") })).toBe('Added card "Today\'s weather"');
    expect(describeEvent({ op: "remove", id: "w" }, card("w", "Today's weather"))).toBe('Removed card "Today\'s weather"');
    expect(describeEvent({ op: "clear" })).toBe("Cleared the canvas");
  });
});
