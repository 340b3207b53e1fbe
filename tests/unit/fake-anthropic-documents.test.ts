// Documents and images in the fake, driven by the real SDK: validation like the API's, counting by
// the documented rules (tokenizer.ts), and replies citing a document.
import Anthropic from "@anthropic-ai/sdk";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { imageTokens, pngHeader } from "../fake-anthropic/images";
import { fakeTokenCount, makePdf, startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { PDF_PAGE_IMAGE_TOKENS } from "../fake-anthropic/tokenizer";
import { badRequest } from "./helpers/bad-request";

let fake: FakeAnthropic;
let client: Anthropic;
const model = "claude-sonnet-5-5";

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const pages = ["Tides follow the moon. They rise twice a day.", "Page two talks about (brackets) and more."];
const pdfBlock = (data: string, extra: Partial<Anthropic.DocumentBlockParam> = {}): Anthropic.DocumentBlockParam => ({
  type: "document",
  source: { type: "base64", media_type: "application/pdf", data },
  ...extra,
});
const count = (content: Anthropic.ContentBlockParam[]) => client.messages.countTokens({ model, messages: [{ role: "user", content }] }).then((r) => r.input_tokens);

describe("makePdf", () => {
  it("writes a real multi-page PDF that unpdf reads back", async () => {
    const pdf = makePdf(pages);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
    expect(totalPages).toBe(2);
    expect(text).toEqual(pages);
  });
});

describe("documents", () => {
  it("counts a PDF per page: its text plus a fixed page-image allowance", async () => {
    const data = makePdf(pages).toString("base64");
    const question: Anthropic.TextBlockParam = { type: "text", text: "Summarize" };
    const withPdf = await count([pdfBlock(data), question]);
    const without = await count([question]);
    expect(withPdf - without).toBe(pages.reduce((sum, p) => sum + fakeTokenCount(p) + PDF_PAGE_IMAGE_TOKENS, 0));
    const message = await client.messages.create({ model, max_tokens: 100, messages: [{ role: "user", content: [pdfBlock(data), question] }] });
    expect(message.usage.input_tokens).toBe(withPdf);
  });

  it("counts plain-text documents by their text, title and context", async () => {
    const doc: Anthropic.DocumentBlockParam = { type: "document", source: { type: "text", media_type: "text/plain", data: "Grass is green." }, title: "Facts", context: "A note" };
    const q: Anthropic.TextBlockParam = { type: "text", text: "q" };
    expect((await count([doc, q])) - (await count([q]))).toBe(fakeTokenCount("q\nFacts\nA note\nGrass is green.") - fakeTokenCount("q"));
  });

  it("refuses malformed base64 and a PDF that is not one, naming the block", async () => {
    const send = (data: string) => client.messages.create({ model, max_tokens: 100, messages: [{ role: "user", content: [{ type: "text", text: "see" }, pdfBlock(data)] }] });
    expect(await badRequest(send("not base64!"))).toContain("messages.0.content.1.source.base64.data: Invalid base64 data");
    expect(await badRequest(send(Buffer.from("hello world").toString("base64")))).toContain("messages.0.content.1.source.base64.data: The PDF specified was not valid.");
  });

  for (const streaming of [false, true]) {
    it(`cites a PDF page and a text document when citations are enabled (${streaming ? "streaming" : "non-streaming"})`, async () => {
      const content: Anthropic.ContentBlockParam[] = [
        pdfBlock(makePdf(pages).toString("base64"), { title: "Tides", citations: { enabled: true } }),
        { type: "document", source: { type: "text", media_type: "text/plain", data: "Grass is green. Sky is blue." }, citations: { enabled: true } },
        { type: "text", text: "What do they say?" },
      ];
      fake.enqueue({ kind: "cited_reply", document: 0 }, { kind: "cited_reply", document: 1, text: "Also:" });
      const send = () => {
        const params = { model, max_tokens: 200, messages: [{ role: "user" as const, content }] };
        return streaming ? client.messages.stream(params).finalMessage() : client.messages.create(params);
      };
      const pdfReply = await send();
      expect(pdfReply.content[1]).toMatchObject({
        type: "text",
        text: "Tides follow the moon.",
        citations: [{ type: "page_location", cited_text: "Tides follow the moon.", document_index: 0, document_title: "Tides", start_page_number: 1, end_page_number: 2 }],
      });
      const textReply = await send();
      expect((textReply.content[1] as Anthropic.TextBlock).citations).toEqual([
        { type: "char_location", cited_text: "Grass is green.", document_index: 1, document_title: null, start_char_index: 0, end_char_index: 15, file_id: null },
      ]);
    });
  }
});

describe("images", () => {
  it("count ceil(w/28)·ceil(h/28) after scaling to 1568 px and 1568 tokens", () => {
    expect(imageTokens(1920, 1080)).toBe(1560);
    expect(imageTokens(200, 200)).toBe(64);
    expect(imageTokens(1000, 1000)).toBe(1296);
  });

  it("are read from their header and counted, also inside tool results", async () => {
    const image: Anthropic.ImageBlockParam = { type: "image", source: { type: "base64", media_type: "image/png", data: pngHeader(1920, 1080).toString("base64") } };
    const q: Anthropic.TextBlockParam = { type: "text", text: "q" };
    expect((await count([image, q])) - (await count([q]))).toBe(1560);
    const toolResult = (content: Anthropic.ToolResultBlockParam["content"]): Anthropic.MessageParam[] => [
      { role: "user", content: "shoot" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "camera", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content }] },
    ];
    const counted = (messages: Anthropic.MessageParam[]) => client.messages.countTokens({ model, messages }).then((r) => r.input_tokens);
    expect((await counted(toolResult([q, image]))) - (await counted(toolResult([q])))).toBe(1560);
    const message = await client.messages.create({ model, max_tokens: 100, messages: toolResult([q, image]) });
    expect(message.content[0].type).toBe("text");
  });

  it("refuse a header that contradicts the media type", async () => {
    const image: Anthropic.ImageBlockParam = { type: "image", source: { type: "base64", media_type: "image/jpeg", data: pngHeader(10, 10).toString("base64") } };
    expect(await badRequest(count([image]))).toContain("messages.0.content.0.source.base64.media_type: Image does not match the provided media type image/jpeg");
  });
});
