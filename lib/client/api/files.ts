// Files attached to conversations: upload to a session, its list (figures once a PDF is read),
// delete, and the account's storage. A file's bytes are at fileHref(id).
import type { FileInfo, StorageUsageJson } from "@/lib/contract/files";
import { json, send } from "@/lib/client/api/http";

const enc = encodeURIComponent;

/** Where a stored file's bytes are: thumbnails, "Open" links. */
export function fileHref(fileId: string): string {
  return `/api/files/${enc(fileId)}`;
}

export async function uploadFile(sessionId: string, file: File, signal?: AbortSignal): Promise<FileInfo> {
  const body = new FormData();
  body.append("file", file, file.name);
  const res = await json<{ file: FileInfo }>(`/api/session/${enc(sessionId)}/files`, { method: "POST", body, signal });
  return res.file;
}

export async function sessionFiles(sessionId: string): Promise<FileInfo[]> {
  return (await json<{ files: FileInfo[] }>(`/api/session/${enc(sessionId)}/files`)).files;
}

export async function deleteFile(fileId: string): Promise<void> {
  await send(fileHref(fileId), { method: "DELETE" });
}

export function myFiles(signal?: AbortSignal): Promise<{ usage: StorageUsageJson; files: FileInfo[] }> {
  return json(`/api/files`, { signal });
}
