"use client";
// One canvas element, by type. Claude's markdown (card bodies, text) goes through the same
// safe renderer as its replies.
import { memo } from "react";
import type { CanvasElement } from "@/lib/contract/canvas-elements";
import { MarkdownText } from "@/components/markdown/MarkdownText";
import { CanvasElementFrame } from "@/components/canvas/CanvasElementFrame";
import { CanvasChart } from "@/components/canvas/CanvasChart";
import { CanvasTable } from "@/components/canvas/CanvasTable";
import { CanvasMedia } from "@/components/canvas/CanvasMedia";
import { CanvasConfirmation } from "@/components/canvas/CanvasConfirmation";

/** Memoized: the reducer keeps unchanged elements' objects, so one change re-renders one element. */
export const CanvasElementView = memo(function CanvasElementView({ element }: { element: CanvasElement }) {
  switch (element.type) {
    case "card":
      return (
        <CanvasElementFrame element={element} title={element.title} subtitle={element.subtitle} footer={element.footer}>
          {element.body ? <MarkdownText text={element.body} /> : null}
        </CanvasElementFrame>
      );
    case "text":
      return (
        <CanvasElementFrame element={element} title={element.title}>
          <MarkdownText text={element.content} />
        </CanvasElementFrame>
      );
    case "chart":
      return (
        <CanvasElementFrame element={element} title={element.title} subtitle={element.unit ? `in ${element.unit}` : undefined} wide>
          <CanvasChart chart={element} />
        </CanvasElementFrame>
      );
    case "table":
      return (
        <CanvasElementFrame element={element} title={element.title} wide>
          <CanvasTable table={element} />
        </CanvasElementFrame>
      );
    case "media":
      return (
        <CanvasElementFrame element={element} title={element.title} wide>
          <CanvasMedia media={element} />
        </CanvasElementFrame>
      );
    case "confirmation":
      return (
        <CanvasElementFrame element={element} title={element.title}>
          <CanvasConfirmation confirmation={element} />
        </CanvasElementFrame>
      );
  }
});
