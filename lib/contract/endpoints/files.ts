import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { ACCEPTED_TYPES_TEXT, fileUploaded, MAX_FILE_BYTES, sessionFiles, storageUsage, fileInfo } from "../files";
import { idParams } from "../requests";

/** Room for the multipart envelope (boundaries, headers, a long file name) around the largest file. */
const ENVELOPE_BYTES = 64 * 1024;

export const files = group("Files", "Attach files to a conversation: upload, read back, delete, and see what your files take.", {
  uploadFile: {
    method: "POST",
    path: "/api/session/{id}/files",
    summary: "Attach a file to a session",
    description: [
      `A multipart/form-data body with the file in the field \`file\`. Works: ${ACCEPTED_TYPES_TEXT}. Send its id in \`attachments\` of the next message.`,
      "",
      "The same bytes uploaded again by you are stored once. A PDF's text is read in the background: the answer comes at once with `extraction: \"pending\"` and an estimated `tokens`; `GET /api/session/{id}/files` shows the figures once read. A PDF whose text cannot be read (scanned pages) still works: Claude reads its pages itself.",
      "",
      "From a browser page the request must be same-origin, as every write is; with a bearer token or API key it may come from anywhere.",
    ].join("\n"),
    params: idParams,
    upload: { field: "file", description: "The file; its name and type as the browser or client gives them.", maxBytes: MAX_FILE_BYTES + ENVELOPE_BYTES },
    responses: { 201: { description: "The stored file.", json: fileUploaded } },
    errors: [E.fileTooLarge, E.quotaExceeded, E.unsupportedFileType, E.invalidFile],
  },
  listSessionFiles: {
    method: "GET",
    path: "/api/session/{id}/files",
    summary: "The session's files",
    description: "Every file attached to the session or used by its messages (a fork's include those it inherited), newest first.",
    params: idParams,
    responses: { 200: { description: "The files.", json: sessionFiles } },
  },
  getFile: {
    method: "GET",
    path: "/api/files/{id}",
    summary: "A file's bytes",
    description:
      "The bytes as uploaded, with `Content-Disposition` naming the file. Images and PDFs come with their own type (shown inline); every other file as `text/plain` or `application/octet-stream`, always as an attachment, with `X-Content-Type-Options: nosniff` and a sandboxing CSP, so nothing uploaded ever runs in the browser.",
    params: idParams,
    query: z.object({ download: z.enum(["1"]).optional() }),
    responses: { 200: { description: "The file's bytes.", binary: "The file as uploaded." } },
  },
  deleteFile: {
    method: "DELETE",
    path: "/api/files/{id}",
    summary: "Delete a file",
    description:
      "Its bytes are gone once no other file of yours has the same bytes. Messages that carried it keep their place: they show it as deleted, and Claude is told it was deleted.",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
  listFiles: {
    method: "GET",
    path: "/api/files",
    summary: "Your files and the storage they take",
    description: "The newest 200 of your files and what all of them take against this server's quota.",
    responses: { 200: { description: "Usage and files.", json: z.object({ usage: storageUsage, files: z.array(fileInfo) }) } },
  },
});
