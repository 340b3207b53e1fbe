import { describe, expect, it } from "vitest";
import type { FileInfo } from "@/lib/contract/files";
import { FILE_INPUT_ACCEPT, fileExtension, fileKindOf } from "@/lib/contract/file-types";
import {
  chipFacts,
  chipsReducer,
  offersReference,
  outgoingFiles,
  refusal,
  sendBlockedReason,
  storageUsageText,
  toAttachments,
  type FileChip,
} from "@/lib/client/attachments";
import { humanBytes } from "@/lib/client/format";
import { pasteIsFiles } from "@/lib/client/paste";
import { groupBlocks, splitUserItems, storedFileId } from "@/lib/client/content-blocks";

const ID = "11111111-1111-4111-8111-111111111111";

function info(over: Partial<FileInfo> = {}): FileInfo {
  return {
    id: ID,
    session_id: null,
    name: "report.pdf",
    media_type: "application/pdf",
    kind: "pdf",
    size: 120_000,
    sha256: "ab",
    tokens: 3_100,
    pages: 4,
    width: null,
    height: null,
    extraction: "done",
    about: null,
    created_at: "2025-01-01T00:00:00Z",
    ...over,
  };
}

function chip(over: Partial<FileChip> = {}): FileChip {
  return { key: "f0", sessionId: "s1", name: "report.pdf", size: 120_000, kind: "pdf", previewUrl: null, status: "uploading", file: null, error: null, byReference: false, ...over };
}

describe("which files can be attached", () => {
  it("knows images and PDFs by type or, without one, by name", () => {
    expect(fileKindOf("shot.png", "image/png")).toBe("image");
    expect(fileKindOf("photo.JPG", "")).toBe("image");
    expect(fileKindOf("scan", "image/webp")).toBe("image");
    expect(fileKindOf("paper.pdf", "application/pdf")).toBe("pdf");
    expect(fileKindOf("paper.pdf", "application/octet-stream")).toBe("pdf");
  });

  it("refuses other images whatever they are called, and takes SVG as the text it is", () => {
    expect(fileKindOf("photo.heic", "image/heic")).toBeNull();
    expect(fileKindOf("photo.png", "image/heic")).toBeNull();
    expect(fileKindOf("logo.svg", "image/svg+xml")).toBe("text");
  });

  it("reads text and code by extension, whatever the browser guessed, and text/* by type", () => {
    expect(fileKindOf("server.log", "")).toBe("text");
    expect(fileKindOf("server.log", "application/octet-stream")).toBe("text");
    expect(fileKindOf("data.csv", "application/vnd.ms-excel")).toBe("text");
    expect(fileKindOf("main.rs", "")).toBe("text");
    expect(fileKindOf("notes", "text/plain")).toBe("text");
    expect(fileKindOf("Dockerfile", "")).toBe("text");
    expect(fileKindOf("conf", "application/json")).toBe("text");
  });

  it("refuses programs, archives and office files", () => {
    expect(fileKindOf("setup.exe", "application/x-msdownload")).toBeNull();
    expect(fileKindOf("setup.exe", "")).toBeNull();
    expect(fileKindOf("a.zip", "application/zip")).toBeNull();
    expect(fileKindOf("a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document")).toBeNull();
    expect(fileKindOf("noext", "")).toBeNull();
  });

  it("takes the extension after the last dot of the base name", () => {
    expect(fileExtension("a/b.c/archive.tar.GZ")).toBe("gz");
    expect(fileExtension(".gitignore")).toBe("gitignore");
    expect(fileExtension("Makefile")).toBe("makefile");
    expect(FILE_INPUT_ACCEPT).toContain(".log");
    expect(FILE_INPUT_ACCEPT).toContain("application/pdf");
  });

  it("says why a file is refused, naming the types that work", () => {
    expect(refusal("setup.exe", "application/x-msdownload", 10, 0)).toMatch(/“setup\.exe” cannot be attached\. Files that work: images \(PNG, JPEG, GIF, WebP\), PDFs/);
    expect(refusal("big.png", "image/png", 6 * 1024 * 1024, 0)).toBe("“big.png” is 6 MB; images can be up to 5 MB.");
    expect(refusal("empty.txt", "text/plain", 0, 0)).toBe("“empty.txt” is empty.");
    expect(refusal("a.txt", "text/plain", 5, 20)).toMatch(/at most 20 files/);
    expect(refusal("a.txt", "text/plain", 5, 0)).toBeNull();
  });
});

describe("sizes for people", () => {
  it("counts in powers of 1024 with one decimal below 100", () => {
    expect(humanBytes(0)).toBe("0 B");
    expect(humanBytes(900)).toBe("900 B");
    expect(humanBytes(4_300)).toBe("4.2 KB");
    expect(humanBytes(319_488)).toBe("312 KB");
    expect(humanBytes(12.3 * 1024 * 1024)).toBe("12.3 MB");
    expect(humanBytes(1024 ** 3)).toBe("1 GB");
    expect(storageUsageText({ used_bytes: 12.3 * 1024 * 1024, quota_bytes: 1024 ** 3, files: 14 })).toBe("Files: 12.3 MB of 1 GB, 14 files");
    expect(storageUsageText({ used_bytes: 2048, quota_bytes: 1024 ** 3, files: 1 })).toBe("Files: 2 KB of 1 GB, 1 file");
  });
});

describe("chips", () => {
  it("go from uploading to ready or failed, and take fresh figures from the file list", () => {
    let chips = chipsReducer([], { type: "added", chip: chip() });
    expect(sendBlockedReason(chips)).toBe("Wait for the file to finish uploading");
    chips = chipsReducer(chips, { type: "uploaded", key: "f0", file: info({ extraction: "pending", tokens: 2_000, pages: null }) });
    expect(chips[0].status).toBe("ready");
    expect(sendBlockedReason(chips)).toBeNull();
    expect(chipFacts(chips[0])).toEqual(["117 KB", "reading…"]);
    chips = chipsReducer(chips, { type: "refreshed", files: [info()] });
    expect(chipFacts(chips[0])).toEqual(["117 KB", "~3.1K tokens", "4 pages"]);
    chips = chipsReducer(chips, { type: "added", chip: chip({ key: "f1", name: "bad.txt" }) });
    chips = chipsReducer(chips, { type: "failed", key: "f1", message: "quota exceeded" });
    expect(chips[1]).toMatchObject({ status: "failed", error: "quota exceeded" });
    expect(chipsReducer(chips, { type: "removed", key: "f1" })).toHaveLength(1);
  });

  it("count uploads still going as a reason to wait", () => {
    expect(sendBlockedReason([chip(), chip({ key: "f1" }), chip({ key: "f2", status: "ready" })])).toBe("Wait for 2 files to finish uploading");
  });

  it("leave the composer once their message is accepted, in their own session only", () => {
    const ready = chip({ status: "ready", file: info() });
    const other = chip({ key: "f1", sessionId: "s2", status: "ready", file: info() });
    expect(chipsReducer([ready, other], { type: "sent", sessionId: "s1", fileIds: [ID] })).toEqual([other]);
  });

  it("offer by reference above a share of the window, and send it only when offered and chosen", () => {
    const big = chip({ status: "ready", file: info({ tokens: 60_000 }), byReference: true });
    expect(offersReference(big, 200_000)).toBe(true);
    expect(offersReference(big, 300_000)).toBe(false);
    expect(offersReference(big, null)).toBe(false);
    expect(toAttachments(outgoingFiles([big], 200_000))).toEqual([{ id: ID, by_reference: true }]);
    expect(toAttachments(outgoingFiles([big], 300_000))).toEqual([ID]);
    const toggled = chipsReducer([big], { type: "toggled_reference", key: "f0" });
    expect(toAttachments(outgoingFiles(toggled, 200_000))).toEqual([ID]);
  });

  it("send only files that finished uploading", () => {
    expect(outgoingFiles([chip(), chip({ key: "f1", status: "failed" }), chip({ key: "f2", status: "ready", file: info() })], null)).toEqual([
      { id: ID, name: "report.pdf", byReference: false },
    ]);
  });
});

describe("pasting files", () => {
  it("attaches clipboard files unless rich text with words came with them", () => {
    expect(pasteIsFiles(["Files"], "", 1)).toBe(true);
    expect(pasteIsFiles(["text/html", "Files"], "", 1)).toBe(true);
    expect(pasteIsFiles(["text/plain", "Files"], "report.pdf", 1)).toBe(true);
    expect(pasteIsFiles(["text/plain", "text/html", "Files"], "Quarterly figures", 1)).toBe(false);
    expect(pasteIsFiles(["text/plain"], "hello", 0)).toBe(false);
  });
});

describe("attached files in a message", () => {
  it("put stored images, documents and references with the attachments, above the typed text", () => {
    const items = groupBlocks([
      { type: "image", source: { type: "threadkeeper_file", file_id: ID, media_type: "image/png" }, threadkeeper: { width: 4, height: 3, file_id: ID, name: "shot.png" } },
      { type: "document", source: { type: "threadkeeper_file", file_id: ID, media_type: "application/pdf" }, title: "report.pdf" },
      { type: "file_reference", file_id: ID, name: "book.pdf", media_type: "application/pdf", pages: 300, tokens: 120_000 },
      { type: "text", text: "What is in these?" },
    ]);
    expect(items.map((i) => i.kind)).toEqual(["image", "document", "file_reference", "text"]);
    const split = splitUserItems(items);
    expect(split.attachments.map((i) => i.kind)).toEqual(["image", "document", "file_reference"]);
    expect(split.text).toHaveLength(1);
    const image = items[0];
    expect(image.kind === "image" && storedFileId(image.block)).toBe(ID);
    expect(storedFileId({ type: "image", source: { type: "base64", media_type: "image/png", data: "" } })).toBeNull();
  });
});
