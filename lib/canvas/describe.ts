// Words for the canvas: one line per element for Claude's view of the canvas, and one phrase
// per change for the tool result and the chat ("Added card “Today's weather”"). Pure.
import type { CanvasElement } from "@/lib/contract/canvas-elements";
import type { CanvasEvent } from "@/lib/contract/canvas";
import type { CanvasEffect } from "@/lib/contract/canvas";

export const SUMMARY_CHARS = 150;

function cut(s: string, n = SUMMARY_CHARS): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

const quoted = (s: string) => JSON.stringify(s);

/** The element's title, or what stands for one. */
export function elementLabel(el: CanvasElement): string {
  switch (el.type) {
    case "card":
    case "confirmation":
      return el.title;
    case "media":
      return el.title ?? el.alt ?? el.media_type;
    default:
      return el.title ?? el.id;
  }
}

/** What the element holds, briefly: the part of Claude's canvas line after its title. */
export function contentSummary(el: CanvasElement): string {
  switch (el.type) {
    case "card":
      return cut([el.subtitle, el.body, el.footer].filter(Boolean).join(" · "));
    case "text":
      return cut(el.content);
    case "chart":
      // Through cut() like the rest: a key may hold a line break, and each element is one line of the prompt.
      return cut(`${el.chart_type} chart of ${el.y_keys.join(", ")} by ${el.x_key}, ${el.data.length} point${el.data.length === 1 ? "" : "s"}${el.unit ? ` (${el.unit})` : ""}`);
    case "table":
      return cut(`${el.rows.length} row${el.rows.length === 1 ? "" : "s"} × ${el.columns.join(" | ")}`);
    case "media":
      return cut(`${el.media_type} ${hostOf(el.url)}${el.alt ? `: ${el.alt}` : ""}`);
    case "confirmation":
      return cut(
        `${el.message ? `${el.message} ` : ""}[${el.options.join(" / ")}] ${el.chosen ? `the user chose ${quoted(el.chosen)}` : "awaiting the user's choice"}`,
      );
  }
}

function hostOf(url: string): string {
  try {
    return `from ${new URL(url).host}`;
  } catch {
    return "";
  }
}

/** One element as Claude's canvas section lists it. */
export function elementLine(el: CanvasElement): string {
  const title = el.type === "text" || el.type === "chart" || el.type === "table" ? el.title : elementLabel(el);
  const summary = contentSummary(el);
  return `- [${el.type}] id=${quoted(el.id)}${title ? ` title=${quoted(cut(title, 80))}` : ""}${summary ? `: ${summary}` : ""}`;
}

/** A change as the chat and the tool result say it. `before`: the element as it was, for updates and removals. */
export function describeEvent(event: CanvasEvent, before?: CanvasElement): string {
  switch (event.op) {
    case "add":
      return `${before ? "Replaced" : "Added"} ${event.element.type} ${quoted(cut(elementLabel(event.element), 60))}`;
    case "update":
      return `Updated ${before ? `${before.type} ${quoted(cut(elementLabel(before), 60))}` : quoted(event.id)}`;
    case "remove":
      return `Removed ${before ? `${before.type} ${quoted(cut(elementLabel(before), 60))}` : quoted(event.id)}`;
    case "clear":
      return "Cleared the canvas";
    case "layout":
      return `Laid the canvas out as a ${event.layout}`;
    case "choose":
      return `Chose ${quoted(event.choice)}`;
    case "reset":
      return `Restored the canvas (${event.state.elements.length} element${event.state.elements.length === 1 ? "" : "s"})`;
  }
}

export function describeEffect(effect: CanvasEffect): string {
  return effect.kind === "notification" ? `Notified: ${cut(effect.message, 80)}` : `Switched the canvas to the ${effect.theme} theme`;
}
