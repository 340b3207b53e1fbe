// One short line per canvas tool call for the chat ("Added card “Today's weather”"), in place
// of the raw tool_use JSON and tool_result text. Pure, so the wording is unit-tested.
import { describeEffect, describeEvent } from "@/lib/canvas/describe";
import { canvasCall } from "@/lib/canvas/tools";
import { toolResultText } from "@/lib/context/text";
import type { ToolResultBlock, ToolUseBlock } from "@/lib/context/types";

/** Which icon the line carries. */
export type CanvasLineKind = "add" | "update" | "remove" | "clear" | "layout" | "choose" | "reset" | "notification" | "theme" | "error";

export interface CanvasLine {
  kind: CanvasLineKind;
  text: string;
}

/** What each tool was trying to do, for "Could not … : <Claude's error>". */
const ATTEMPTS: Record<string, string> = {
  canvas_add_card: "add a card",
  canvas_show_text: "show text",
  canvas_show_chart: "show a chart",
  canvas_show_table: "show a table",
  canvas_play_media: "show media",
  canvas_show_confirmation: "ask for a choice",
  canvas_update_card: "update the canvas",
  canvas_remove_element: "remove from the canvas",
  canvas_set_mode: "change the canvas",
  canvas_show_notification: "show a notification",
  canvas_set_theme: "switch the canvas theme",
};

/**
 * describe.ts quotes labels as JSON strings (what Claude reads); the chat shows typographic
 * quotes. Only complete JSON string literals are rewritten, unescaped on the way.
 */
export function curlyQuotes(s: string): string {
  return s.replace(/"((?:[^"\\]|\\.)*)"/g, (whole, inner: string) => {
    try {
      return `“${JSON.parse(`"${inner}"`) as string}”`;
    } catch {
      return whole;
    }
  });
}

/**
 * The server's result for a successful call is describe.ts's phrase plus the element's id
 * (`Removed card "Today's weather" (id "weather").`): the phrase, when it is one.
 */
const SERVER_PHRASE = /^((?:Added|Replaced|Updated|Removed|Cleared|Laid|Chose|Notified|Switched)\b.*?)(?: \(id "(?:[^"\\]|\\.)*"\))?\.?$/s;

/**
 * The line for one call. The wording is the server's result where it is describe.ts's phrase
 * (the server knew what was on the canvas: an add that replaced an element, the title of what
 * an update or removal touched), else made from the call's input. The result decides failure.
 */
export function canvasLine(use: ToolUseBlock, result: ToolResultBlock): CanvasLine {
  const resultText = toolResultText(result).trim();
  if (result.is_error) {
    const attempt = ATTEMPTS[use.name] ?? use.name;
    return { kind: "error", text: `Could not ${attempt}: ${resultText || "the canvas refused the change."}` };
  }
  const call = canvasCall(use.name, use.input, use.id);
  switch (call.kind) {
    case "error":
      // The server accepted what this client's schemas reject (an older page): its own words stand.
      return { kind: "update", text: resultText || use.name };
    case "effect":
      return { kind: call.effect.kind, text: curlyQuotes(describeEffect(call.effect)) };
    case "event": {
      const phrase = SERVER_PHRASE.exec(resultText)?.[1];
      return { kind: call.event.op, text: curlyQuotes(phrase ?? describeEvent(call.event)) };
    }
  }
}
