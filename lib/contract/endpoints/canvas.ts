import { E } from "../error-cases";
import { group } from "../endpoint";
import { canvasElementParams, canvasQuery, choiceSchema, idParams } from "../requests";
import { canvas } from "../canvas";

export const canvasOperations = group("Canvas", "What Claude put on the canvas beside the chat (cards, text, charts, tables, media, confirmations) through its canvas tools; " +
    "Claude's requests list it in the system prompt. The user can remove elements, clear it and answer confirmations.", {
  getCanvas: {
    method: "GET",
    path: "/api/session/{id}/canvas",
    summary: "The session's canvas",
    description: "With `checkpoint_id` (one of this session's checkpoints): the canvas as it was when that checkpoint was saved.",
    params: idParams,
    query: canvasQuery,
    responses: { 200: { description: "The canvas.", json: canvas } },
  },
  clearCanvas: {
    method: "DELETE",
    path: "/api/session/{id}/canvas",
    summary: "Clear the canvas",
    description: "Recorded as the user's change; Claude's next request sees an empty canvas.",
    params: idParams,
    responses: { 200: { description: "The canvas, now empty.", json: canvas } },
  },
  removeCanvasElement: {
    method: "DELETE",
    path: "/api/session/{id}/canvas/{element_id}",
    summary: "Remove one element from the canvas",
    description: "404 when no element has that id. Claude's next request no longer lists it.",
    params: canvasElementParams,
    responses: { 200: { description: "The canvas without it.", json: canvas } },
  },
  chooseCanvasOption: {
    method: "POST",
    path: "/api/session/{id}/canvas/{element_id}/choice",
    summary: "Answer a confirmation on the canvas",
    description:
      "Records the user's choice on the confirmation (Claude's canvas section shows it). The browser also sends the choice as the user's next message.",
    params: canvasElementParams,
    body: choiceSchema,
    bodyLimit: 4 * 1024,
    responses: { 200: { description: "The canvas with the choice recorded.", json: canvas } },
    errors: [E.invalidChoice],
  },
});
