// The browser's side of the canvas: the chat's line for each tool call, chart shaping, keeping
// the local copy in step with the stream, and what the renderers put in the DOM.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CanvasElement, ChartElement, MediaElement, TableElement } from "@/lib/contract/canvas-elements";
import type { CanvasJson } from "@/lib/contract";
import type { ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { canvasLine, curlyQuotes } from "@/lib/client/canvas-lines";
import { compactNumber, formatValue, hasValues, pieSlices, seriesColor, SERIES_COLORS } from "@/lib/client/canvas-chart";
import { applyStream, newer } from "@/lib/client/canvas-sync";
import { panelShown } from "@/lib/client/canvas-panel-store";
import { useMediaHosts } from "@/lib/client/media-hosts";
import { CanvasTable, cellText } from "@/components/canvas/CanvasTable";
import { CanvasMedia, MediaView } from "@/components/canvas/CanvasMedia";
import { CanvasCallLine } from "@/components/canvas/CanvasCallLine";

const use = (name: string, input: unknown, id = "toolu_01ABCDEF"): ToolUseBlock => ({ type: "tool_use", id, name, input });
const result = (content: string, is_error = false, id = "toolu_01ABCDEF"): ToolResultBlock => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  ...(is_error ? { is_error } : {}),
});

describe("canvas call lines in the chat", () => {
  it("says what a call added, with typographic quotes around the title", () => {
    const line = canvasLine(
      use("canvas_add_card", { id: "weather", title: "Today's weather", body: "21 °C" }),
      result('Added card "Today\'s weather" (id "weather").'),
    );
    expect(line).toEqual({ kind: "add", text: "Added card “Today's weather”" });
  });

  it("makes the words from the call's input when the result is not the server's phrase", () => {
    const line = canvasLine(use("canvas_show_chart", { title: "Rain", chart_type: "bar", data: [{ d: "Mon", mm: 3 }], x_key: "d", y_keys: ["mm"] }), result("done"));
    expect(line).toEqual({ kind: "add", text: "Added chart “Rain”" });
  });

  it("says Replaced when the server's result says the id was already on the canvas", () => {
    const line = canvasLine(use("canvas_add_card", { id: "weather", title: "Weather" }), result('Replaced card "Weather" (id "weather").'));
    expect(line.text).toBe("Replaced card “Weather”");
  });

  it("shows Claude's error with what it was trying to do", () => {
    const line = canvasLine(
      use("canvas_remove_element", { id: "gone" }),
      result('No element with id "gone" is on the canvas.', true),
    );
    expect(line.kind).toBe("error");
    expect(line.text).toBe('Could not remove from the canvas: No element with id "gone" is on the canvas.');
  });

  it("takes the title an update or removal touched from the server's result", () => {
    expect(canvasLine(use("canvas_remove_element", { id: "weather" }), result('Removed card "Today\'s weather" (id "weather").')).text).toBe(
      "Removed card “Today's weather”",
    );
    expect(canvasLine(use("canvas_update_card", { id: "w", body: "x" }), result('Updated card "Say \\"hi\\"" (id "w").')).text).toBe(
      'Updated card “Say "hi"”',
    );
  });

  it("names removals, clears, layouts, notifications and theme switches", () => {
    expect(canvasLine(use("canvas_remove_element", { id: "weather" }), result("ok")).text).toBe("Removed “weather”");
    expect(canvasLine(use("canvas_set_mode", { mode: "clear" }), result("ok"))).toMatchObject({ kind: "clear", text: "Cleared the canvas" });
    expect(canvasLine(use("canvas_set_mode", { mode: "list" }), result("ok"))).toMatchObject({ kind: "layout", text: "Laid the canvas out as a list" });
    expect(canvasLine(use("canvas_show_notification", { message: "Saved" }), result("ok"))).toMatchObject({ kind: "notification", text: "Notified: Saved" });
    expect(canvasLine(use("canvas_set_theme", { theme: "dark" }), result("ok"))).toMatchObject({ kind: "theme" });
    expect(canvasLine(use("canvas_update_card", { id: "weather", body: "22 °C" }), result("ok")).text).toBe("Updated “weather”");
  });

  it("falls back to the server's words when this page's schemas reject an input the server took", () => {
    const line = canvasLine(use("canvas_add_card", { title: "" }), result('Added card "x" (id "card-1").'));
    expect(line.text).toBe('Added card "x" (id "card-1").');
  });

  it("turns only complete JSON string literals into curly quotes, unescaping them", () => {
    expect(curlyQuotes('Added card "say \\"hi\\""')).toBe("Added card “say \"hi\"”");
    expect(curlyQuotes('a "b" c "d')).toBe('a “b” c "d');
  });

  it("renders as one line with its kind, errors included", () => {
    const html = renderToStaticMarkup(
      createElement(CanvasCallLine, { use: use("canvas_show_table", { columns: ["a"], rows: [[1]] }), result: result("bad input", true) }),
    );
    expect(html).toContain('data-kind="error"');
    expect(html).toContain("Could not show a table: bad input");
    expect(html).not.toContain("columns");
  });
});

describe("canvas chart shaping", () => {
  const chart = (data: ChartElement["data"], y_keys = ["v"]): Pick<ChartElement, "data" | "x_key" | "y_keys"> => ({ data, x_key: "k", y_keys });

  it("keeps only positive pie values, naming each slice by its category", () => {
    expect(pieSlices(chart([{ k: "a", v: 3 }, { k: "b", v: 0 }, { k: "c", v: null }, { k: 7, v: 2 }, { k: null, v: 1 }]))).toEqual([
      { name: "a", value: 3 },
      { name: "7", value: 2 },
      { name: "—", value: 1 },
    ]);
  });

  it("knows a chart of only nulls has nothing to draw", () => {
    expect(hasValues(chart([{ k: "a", v: null }]))).toBe(false);
    expect(hasValues(chart([{ k: "a", v: null, w: 1 }], ["v", "w"]))).toBe(true);
  });

  it("shortens axis numbers for a narrow panel", () => {
    expect(compactNumber(950)).toBe("950");
    expect(compactNumber(12_500)).toBe("12.5k");
    expect(compactNumber(2_000_000)).toBe("2M");
    expect(compactNumber(-3_400_000_000)).toBe("-3.4B");
    expect(compactNumber(0.25)).toBe("0.25");
    expect(compactNumber(12.34)).toBe("12.3");
  });

  it("puts symbols on the number and words after a space", () => {
    expect(formatValue(21.5, "°C")).toBe("21.5°C");
    expect(formatValue(40, "%")).toBe("40%");
    expect(formatValue(1234.5, "ms")).toBe("1,234.5 ms");
    expect(formatValue(null)).toBe("—");
  });

  it("cycles through distinct series colours", () => {
    expect(new Set(SERIES_COLORS).size).toBe(SERIES_COLORS.length);
    expect(seriesColor(SERIES_COLORS.length)).toBe(seriesColor(0));
  });
});

describe("keeping the canvas in step with the stream", () => {
  const card = (id: string): CanvasElement => ({ id, type: "card", title: `Card ${id}` });
  const at = (version: number, ...elements: CanvasElement[]): CanvasJson => ({ layout: "grid", elements, version });

  it("applies the stream's events with the server's reducer and takes its version", () => {
    const out = applyStream(at(5, card("a")), { events: [{ op: "add", element: card("b") }, { op: "remove", id: "a" }], effects: [], version: 9 });
    expect(out).toEqual({ kind: "applied", canvas: at(9, card("b")) });
  });

  it("skips events a newer read already holds", () => {
    expect(applyStream(at(9, card("b")), { events: [{ op: "add", element: card("b") }], effects: [], version: 9 })).toEqual({ kind: "stale" });
  });

  it("asks for a fresh read when it has no copy or an event does not apply", () => {
    expect(applyStream(null, { events: [], effects: [], version: 1 })).toEqual({ kind: "refetch" });
    expect(applyStream(at(3), { events: [{ op: "remove", id: "missed" }], effects: [], version: 4 })).toEqual({ kind: "refetch" });
  });

  it("keeps the newer of two copies, so a slow read does not undo a streamed change", () => {
    expect(newer(at(9, card("b")), at(5))).toEqual(at(9, card("b")));
    expect(newer(at(5), at(9, card("b")))).toEqual(at(9, card("b")));
    expect(newer(null, at(0))).toEqual(at(0));
  });

  it("shows the panel when the user said so, or by default when there is (or was) something on it", () => {
    expect(panelShown(null, false)).toBe(false);
    expect(panelShown(null, true)).toBe(true);
    expect(panelShown("closed", true)).toBe(false);
    expect(panelShown("open", false)).toBe(true);
  });
});

describe("canvas renderers", () => {
  it("renders a table's cells as text, lining numeric columns up on the right", () => {
    const table: TableElement = { id: "t", type: "table", columns: ["City", "°C"], rows: [["<b>Oslo</b>", 4], ["Rome", null], ["Lima", 19]] };
    const html = renderToStaticMarkup(createElement(CanvasTable, { table }));
    expect(html).toContain("&lt;b&gt;Oslo&lt;/b&gt;");
    expect(html).toMatch(/<th scope="col" class="[^"]*text-right[^"]*">°C<\/th>/);
    expect(html).not.toMatch(/<th scope="col" class="[^"]*text-right[^"]*">City<\/th>/);
    expect(html).toContain("—");
  });

  it("groups large numbers in cells but leaves years and small numbers as given", () => {
    expect(cellText(709037)).toBe("709,037");
    expect(cellText(2024)).toBe("2024");
    expect(cellText(-12500.5)).toBe("-12,500.5");
    expect(cellText(true)).toBe("Yes");
  });

  it("loads media only once its host is allowed, then without a referrer, and links the source", () => {
    const media: MediaElement = { id: "m", type: "media", media_type: "image", url: "https://example.com/a.png?q=secret", alt: "A cat" };
    const held = renderToStaticMarkup(createElement(CanvasMedia, { media }));
    expect(held).not.toContain("<img");
    expect(held).not.toContain('src="');
    expect(held).toContain("Show media from example.com");
    expect(held).toContain("A cat");
    useMediaHosts.getState().allow("example.com");
    expect(useMediaHosts.getState().allowed.has("example.com")).toBe(true);
    expect(useMediaHosts.getState().allowed.has("other.example")).toBe(false);
    const html = renderToStaticMarkup(createElement(MediaView, { media, shown: true, onShow: () => {} }));
    expect(html).toContain("<img");
    expect(html).toContain('referrerPolicy="no-referrer"');
    expect(html).toContain('alt="A cat"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});
