// The offline responder's canvas demo, so the canvas can be tried without a key: a message
// starting with `/demo canvas` makes it call the canvas tools through the real loop (a card, a
// chart, a table, a confirmation and a notification), exactly as Claude would.
import "server-only";
import type { ApiMessage, ToolUseBlock } from "@/lib/context/types";
import { typedText } from "@/lib/context/text";
import type { ToolDef } from "@/lib/tokens/tokenizer";

const DEMO = /^\/demo\s+canvas\b/i;

export const DEMO_CANVAS_TEXT =
  "Here is what the canvas can hold: a card, a chart, a table and a question for you. They stay on the canvas, and in my view of it, until you remove them.";

const CALLS: { name: string; input: Record<string, unknown> }[] = [
  {
    name: "canvas_add_card",
    input: {
      id: "demo-weather",
      title: "Today's weather",
      subtitle: "Lisbon",
      body: "Sunny spells, **21 °C**, light wind from the north-west.",
      footer: "Offline demo: no forecast was fetched",
    },
  },
  {
    name: "canvas_show_chart",
    input: {
      id: "demo-week",
      title: "This week",
      chart_type: "line",
      x_key: "day",
      y_keys: ["high", "low"],
      unit: "°C",
      data: [
        { day: "Mon", high: 21, low: 13 },
        { day: "Tue", high: 23, low: 14 },
        { day: "Wed", high: 19, low: 12 },
        { day: "Thu", high: 18, low: 11 },
        { day: "Fri", high: 22, low: 13 },
      ],
    },
  },
  {
    name: "canvas_show_table",
    input: {
      id: "demo-plan",
      title: "Plan",
      columns: ["Task", "Owner", "Done"],
      rows: [
        ["Book the table", "you", false],
        ["Pack an umbrella", "you", true],
      ],
    },
  },
  {
    name: "canvas_show_confirmation",
    input: { id: "demo-confirm", title: "Book the table for Friday?", message: "The terrace is free at 20:00.", options: ["Book it", "Not now"] },
  },
  { name: "canvas_show_notification", input: { message: "Canvas demo ready", level: "success" } },
];

/** The demo's tool calls for the last user message, when it asks for the demo and the canvas tools are offered. */
export function offlineCanvasDemo(messages: readonly ApiMessage[], tools: readonly ToolDef[]): ToolUseBlock[] | null {
  const offered = new Set(tools.map((t) => t.name));
  if (!CALLS.every((c) => offered.has(c.name))) return null;
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user" || last.content.some((b) => b.type === "tool_result")) return null;
  if (!DEMO.test(typedText(last.content).trim())) return null;
  return CALLS.map((c, i) => ({ type: "tool_use", id: `toolu_offline_canvas_${messages.length}_${i}`, name: c.name, input: c.input }));
}
