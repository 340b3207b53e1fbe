import { describe, expect, it } from "vitest";
import { wireMessages } from "@/lib/context/api-messages";
import {
  carriedFiles,
  earlierFilesSection,
  fileBlock,
  fileIdsToSend,
  filesTokensInWindow,
  type FileFacts,
  type FileInSession,
} from "@/lib/context/files";
import { breakpointCount, MAX_BREAKPOINTS, planCacheBreakpoints } from "@/lib/context/prompt-cache";
import type { ApiMessage } from "@/lib/context/types";
import { aboutLine, classifyFile, safeFileName, titleFileName, textPages, TEXT_PAGE_LINES } from "@/lib/files/classify";
import { makePdf } from "../fake-anthropic/pdf-fixture";
import { pngHeader } from "../fake-anthropic/images";

const PDF: FileFacts = { id: "11111111-1111-4111-8111-111111111111", name: "report.pdf", media_type: "application/pdf", kind: "pdf", sha256: "a".repeat(64), tokens: 9000, pages: 5, width: null, height: null };
const PNG: FileFacts = { id: "22222222-2222-4222-8222-222222222222", name: "chart.png", media_type: "image/png", kind: "image", sha256: "b".repeat(64), tokens: 1200, pages: null, width: 800, height: 600 };
const TXT: FileFacts = { id: "33333333-3333-4333-8333-333333333333", name: "notes.md", media_type: "text/markdown", kind: "text", sha256: "c".repeat(64), tokens: 40, pages: 1, width: null, height: null };

describe("a file in a message", () => {
  it("is the API's own block kind holding the file's id, or one line when attached by reference", () => {
    expect(fileBlock(PDF)).toMatchObject({ type: "document", title: "report.pdf", source: { type: "threadkeeper_file", file_id: PDF.id }, threadkeeper: { pages: 5, tokens: 9000 } });
    expect(fileBlock(PNG)).toMatchObject({ type: "image", threadkeeper: { width: 800, height: 600, file_id: PNG.id } });
    expect(fileBlock(PDF, true)).toEqual({ type: "file_reference", file_id: PDF.id, name: "report.pdf", media_type: "application/pdf", pages: 5, tokens: 9000 });
  });

  it("names the files it carries, once each, tool results included, and what they cost", () => {
    const content = [fileBlock(PDF), fileBlock(PDF), { type: "tool_result" as const, tool_use_id: "t", content: [fileBlock(PNG) as never] }, fileBlock(TXT, true)];
    expect(carriedFiles(content)).toEqual([
      { file_id: PDF.id, tokens: 9000, by_reference: false },
      { file_id: PNG.id, tokens: expect.any(Number), by_reference: false },
      { file_id: TXT.id, tokens: 0, by_reference: true },
    ]);
    expect(fileIdsToSend([{ content }])).toEqual([PDF.id, PNG.id]);
  });

  it("goes over the wire with its bytes in the API's source, one line by reference, and says so when deleted", () => {
    const messages: ApiMessage[] = [{ role: "user", content: [fileBlock(PNG), fileBlock(TXT), fileBlock(PDF), fileBlock(PDF, true), { type: "text", text: "Look" }] }];
    const bodies = new Map([
      [PNG.id, { kind: "image" as const, media_type: "image/png", data: "iVBOR" }],
      [TXT.id, { kind: "text" as const, media_type: "text/markdown", data: "# Notes" }],
    ]);
    const [wire] = wireMessages(messages, bodies);
    expect(wire.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
      { type: "document", title: "notes.md", source: { type: "text", media_type: "text/plain", data: "# Notes" } },
      { type: "text", text: '[The file "report.pdf" was attached here and has since been deleted.]' },
      { type: "text", text: expect.stringMatching(/^\[Attached by reference: "report\.pdf" \(PDF, 5 pages, about 9,000 tokens; file_id 1111.*open_file/) },
      { type: "text", text: "Look" },
    ]);
    // Without the bodies (a request's digest) the block stands for itself.
    expect(JSON.stringify(wireMessages(messages))).toContain('"threadkeeper_file"');
  });
});

describe("files and the window", () => {
  const files: FileInSession[] = [
    { file_id: PDF.id, turn_seq: 2, name: "report.pdf", media_type: "application/pdf", pages: 5, tokens: 9000, about: "Quarterly report" },
    { file_id: PNG.id, turn_seq: 7, name: "chart.png", media_type: "image/png", pages: null, tokens: 1200, about: null },
    { file_id: PDF.id, turn_seq: 3, name: "report.pdf", media_type: "application/pdf", pages: 5, tokens: 9000, about: "Quarterly report" },
  ];

  it("lists, one line each, only the files no turn in the window still carries", () => {
    const section = earlierFilesSection(files, (t) => t >= 5);
    expect(section.split("\n")).toEqual([expect.stringContaining("open_file"), `- "report.pdf" (PDF, 5 pages, file_id ${PDF.id}, turn 2) — Quarterly report`]);
    expect(earlierFilesSection(files, (t) => t >= 3)).toBe("");
    expect(earlierFilesSection(files, () => true)).toBe("");
  });

  it("counts what the files in the window take", () => {
    expect(filesTokensInWindow(files, (t) => t >= 5)).toBe(1200);
    expect(filesTokensInWindow(files, () => false)).toBe(0);
  });

  it("gives the newest file a breakpoint of its own, in the summary's place when all four are wanted", () => {
    const text = (role: "user" | "assistant", chars: number): ApiMessage => ({ role, content: [{ type: "text", text: "x".repeat(chars) }] });
    const messages = [text("user", 4000), text("assistant", 4000), text("user", 4000), text("assistant", 4000), text("user", 4000), text("assistant", 4000), text("user", 4000)];
    const plan = planCacheBreakpoints({ baseTokens: 2000, summaryTokens: 1500, messages, factor: 1, minCacheTokens: 1024, fileMessages: [0, 2] });
    expect(plan).toEqual({ base: true, summary: false, messages: [2, 4, 6] });
    expect(breakpointCount(plan)).toBe(MAX_BREAKPOINTS);
    const noFiles = planCacheBreakpoints({ baseTokens: 2000, summaryTokens: 1500, messages, factor: 1, minCacheTokens: 1024 });
    expect(noFiles).toEqual({ base: true, summary: true, messages: [4, 6] });
  });
});

describe("what an upload is", () => {
  it("is read from the bytes first: a PNG named .pdf is an image, HTML named .pdf is refused, SVG is text", () => {
    expect(classifyFile("photo.pdf", "application/pdf", pngHeader(10, 10))).toEqual({ kind: "image", mediaType: "image/png" });
    expect(classifyFile("report.bin", "", makePdf(["x"]))).toEqual({ kind: "pdf", mediaType: "application/pdf" });
    expect(classifyFile("page.pdf", "application/pdf", new TextEncoder().encode("<html>hi</html>"))).toBeNull();
    expect(classifyFile("logo.svg", "image/svg+xml", new TextEncoder().encode("<svg/>"))).toEqual({ kind: "text", mediaType: "text/plain" });
    expect(classifyFile("data.csv", "", new TextEncoder().encode("a,b\n1,2"))).toEqual({ kind: "text", mediaType: "text/csv" });
    expect(classifyFile("setup.exe", "application/octet-stream", Uint8Array.from([0x4d, 0x5a, 0, 1]))).toBeNull();
    // Named as text but not UTF-8 (a binary renamed .txt).
    expect(classifyFile("blob.txt", "text/plain", Uint8Array.from([0xff, 0xfe, 0x00, 0x41]))).toBeNull();
  });

  it("has a safe name: no folders, no control or direction characters, at most 255 characters with its extension", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("C:\\Users\\me\\report.pdf")).toBe("report.pdf");
    expect(safeFileName("evil\u202Egnp.exe")).toBe("evilgnp.exe");
    expect(safeFileName("a\u0000b\u0007c.txt")).toBe("abc.txt");
    expect(safeFileName("..")).toBe("file");
    expect(safeFileName("   ")).toBe("file");
    const long = safeFileName(`${"x".repeat(600)}.pdf`);
    expect([...long].length).toBe(255);
    expect(long.endsWith("….pdf")).toBe(true);
  });

  it("is about its first line with words, and a text file's pages are 200 lines", () => {
    expect(aboutLine("\n\n---\n# Quarterly report  2026\nbody")).toBe("# Quarterly report 2026");
    expect(aboutLine("1234\n----")).toBeNull();
    const text = Array.from({ length: TEXT_PAGE_LINES * 2 + 1 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(textPages(text).map((p) => p.split("\n")[0])).toEqual(["line 1", "line 201", "line 401"]);
  });
});

describe("titleFileName", () => {
  it("keeps a title readable, with no path, reserved, control or bidi characters, and never empty", () => {
    expect(titleFileName("Garden: beds / paths", "x")).toBe("Garden beds paths");
    expect(titleFileName("a\u0000b\u202Eexe.txt", "x")).toBe("abexe.txt");
    expect(titleFileName("../../etc/passwd", "x")).toBe(".. .. etc passwd");
    expect(titleFileName(" / ", "untitled")).toBe("untitled");
    expect([...titleFileName("y".repeat(500), "x")].length).toBe(80);
  });
});
