// An export file received straight to disk: imports are up to gigabytes, so the body never sits
// in memory. The declared Content-Length is checked before anything is read; a multipart body is
// parsed by busboy as it streams (the file in the field `file`), any other body is the file.
// Either is counted as it goes and abandoned past the limit, leaving nothing behind.
import "server-only";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { safeFileName } from "@/lib/files/classify";
import { badRequest, storageFull } from "@/lib/errors";
import { isStorageFullError } from "@/lib/db/storage";
import { tooLarge } from "./body";

export const IMPORT_FIELD = "file";

export interface ReceivedFile {
  fileName: string | null;
  bytes: number;
}

/** A counter that fails the stream past `max` bytes. */
function limit(max: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > max) done(tooLarge(max));
      else done(null, chunk);
    },
  });
}

const cleanName = (name: string | undefined) => (name ? safeFileName(name) : null);

/** Receives the request's file into `dest` (created owner-only); throws 400/413/507 and leaves no file. */
export async function receiveUpload(req: Request, dest: string, max: number): Promise<ReceivedFile> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > max + 64 * 1024) throw tooLarge(max);
  if (!req.body) throw badRequest(`Send the export file as the multipart field '${IMPORT_FIELD}', or as the body`);
  const body = Readable.fromWeb(req.body as WebReadableStream<Uint8Array>);
  const counted = { bytes: 0 };
  // As sent: a multipart boundary is case-sensitive.
  const type = req.headers.get("content-type") ?? "";
  try {
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      await pipeline(body, limit(max, counted), createWriteStream(dest, { mode: 0o600 }));
      if (counted.bytes === 0) throw badRequest("The body is empty: send the export file");
      return { fileName: null, bytes: counted.bytes };
    }
    return await new Promise<ReceivedFile>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 20, parts: 30, fileSize: max + 1 } });
      } catch (e) {
        reject(badRequest("The body is not valid multipart/form-data", { reason: (e as Error).message }));
        return;
      }
      let got: Promise<ReceivedFile> | null = null;
      parser.on("file", (field, file, info) => {
        if (field !== IMPORT_FIELD || got) {
          file.resume();
          return;
        }
        got = pipeline(file, limit(max, counted), createWriteStream(dest, { mode: 0o600 })).then(() => ({ fileName: cleanName(info.filename), bytes: counted.bytes }));
        got.catch(reject);
      });
      parser.on("error", (e: Error) => reject(badRequest("The body is not valid multipart/form-data", { reason: e.message })));
      parser.on("close", () => {
        if (!got) reject(badRequest(`Invalid '${IMPORT_FIELD}': send the export file as the multipart field '${IMPORT_FIELD}'`, { issues: [{ path: IMPORT_FIELD, message: "a file is required", code: "invalid_type" }] }));
        else got.then(resolve, reject);
      });
      body.on("error", reject);
      body.pipe(parser);
    });
  } catch (err) {
    await rm(dest, { force: true });
    if (isStorageFullError(err)) throw storageFull();
    throw err;
  }
}
