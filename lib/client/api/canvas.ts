// Browser-side client for the open session's canvas: read it, remove one element, clear it,
// record the answer to a confirmation. Each change answers the canvas as it now is.
import type { CanvasJson } from "@/lib/contract";
import { json, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;
const base = (sessionId: string) => `/api/session/${enc(sessionId)}/canvas`;

export async function getCanvas(sessionId: string, signal?: AbortSignal): Promise<CanvasJson> {
  return json<CanvasJson>(base(sessionId), { signal });
}

export async function removeElement(sessionId: string, elementId: string): Promise<CanvasJson> {
  return json<CanvasJson>(`${base(sessionId)}/${enc(elementId)}`, { method: "DELETE" });
}

export async function clearCanvas(sessionId: string): Promise<CanvasJson> {
  return json<CanvasJson>(base(sessionId), { method: "DELETE" });
}

export async function chooseOption(sessionId: string, elementId: string, choice: string): Promise<CanvasJson> {
  return json<CanvasJson>(`${base(sessionId)}/${enc(elementId)}/choice`, withBody("POST", { choice }));
}
