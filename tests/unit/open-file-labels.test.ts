// What the chat says for an open_file call and its result (components/chat/open-file.ts), and the
// two pure readings it rests on: the part asked for, and the file name file-open.ts writes first.
import { describe, expect, it } from "vitest";
import { openedFileName, openFilePart } from "@/lib/context/files";
import { openedFile, openingFile } from "@/components/chat/open-file";

describe("open_file in words", () => {
  it("names the part asked for: a page, a range, lines, a search, or page 1 by default", () => {
    expect(openFilePart({ file_id: "x", pages: "3" })).toBe("page 3");
    expect(openFilePart({ file_id: "x", pages: "2 - 4" })).toBe("pages 2-4");
    expect(openFilePart({ file_id: "x", lines: "120-180" })).toBe("lines 120-180");
    expect(openFilePart({ file_id: "x", search: " revenue " })).toBe("“revenue”");
    expect(openFilePart({ file_id: "x" })).toBe("page 1");
    expect(openFilePart(null)).toBe("page 1");
  });

  it("reads the file's name from the start of each answer shape of file-open.ts", () => {
    expect(openedFileName('"report.pdf"\n--- page 3 of 5 ---\nzanzibar')).toBe("report.pdf");
    expect(openedFileName('"notes.txt", lines 1-4:\n1: a')).toBe("notes.txt");
    expect(openedFileName('"a "quoted" name.pdf": 2 page(s) mention "x"')).toBe('a "quoted" name.pdf');
    expect(openedFileName('"shot.png" (10×10 px):')).toBe("shot.png");
    expect(openedFileName("No page of \"report.pdf\" contains \"x\".")).toBeNull();
  });

  it("says what Claude is opening, then what it opened", () => {
    expect(openingFile({ file_id: "x", pages: "3" })).toBe("Opening page 3 of a file…");
    expect(openingFile({ file_id: "x", search: "q4" })).toBe("Searching a file for “q4”…");
    expect(openedFile({ file_id: "x", pages: "3" }, '"report.pdf"\n--- page 3 of 5 ---\n…', false)).toBe("Opened report.pdf, page 3");
    expect(openedFile({ file_id: "x", search: "q4" }, "No page of …", false)).toBe("Searched a file for “q4”");
    expect(openedFile({ file_id: "x" }, "No file x in this conversation.", true)).toBe("Could not open the file");
  });
});
