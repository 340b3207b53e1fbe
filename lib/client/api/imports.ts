// Imports of exports from elsewhere: the upload (by XMLHttpRequest, the one browser API that
// reports an upload's progress), then the import's own progress as the server reads the file.
import type { ImportJson } from "@/lib/contract/imports";
import { ApiError, json, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

/** Sends the file; `onProgress` gets the share uploaded (0–1). Answers the import once received. */
export function uploadExport(file: File, onProgress: (share: number) => void, signal?: AbortSignal): Promise<ImportJson> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/import");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // A proxy's page: the status says enough.
      }
      if (xhr.status === 202 && body && typeof body === "object" && "import" in body) return resolve((body as { import: ImportJson }).import);
      const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
      reject(new ApiError(xhr.status, error?.code ?? "http_error", error?.message ?? `The upload failed (${xhr.status}).`, error?.details));
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "Could not reach the server. Check that it is running and retry."));
    xhr.onabort = () => reject(new DOMException("The upload was stopped.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

export async function getImport(id: string, signal?: AbortSignal): Promise<ImportJson> {
  return (await json<{ import: ImportJson }>(`/api/import/${enc(id)}`, { signal })).import;
}

export async function listImports(signal?: AbortSignal): Promise<ImportJson[]> {
  return (await json<{ imports: ImportJson[] }>(`/api/import?limit=10`, { signal })).imports;
}

export async function cancelImport(id: string): Promise<ImportJson> {
  return (await json<{ import: ImportJson }>(`/api/import/${enc(id)}/cancel`, withBody("POST", {}))).import;
}

export async function archiveImport(id: string): Promise<ImportJson> {
  return (await json<{ import: ImportJson }>(`/api/import/${enc(id)}/archive`, withBody("POST", {}))).import;
}
