import { describe, it, expect, afterEach, vi } from "vitest";
import type { ContentBlock } from "@/lib/contract/messages";
import { countMessageOffThread, countMessagesOffThread, OFF_THREAD_FROM, stopTokenWorker } from "@/lib/tokens/off-thread";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";

const text = (t: string): ContentBlock[] => [{ type: "text", text: t }];

function minified(length: number, seed: number): string {
  let s = "";
  for (let k = seed; s.length < length; k++) s += `function a${k}(b,c){return b.map(d=>d*c+1).filter(e=>e>0x1f)}var q${k}=[1,2,3];`;
  return s.slice(0, length);
}

/** The longest gap between ticks of a 5 ms interval while `run` is awaited. */
async function longestStall<T>(run: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 5);
    last = now;
  }, 5);
  try {
    return { value: await run(), stallMs };
  } finally {
    clearInterval(timer);
  }
}

afterEach(async () => {
  await stopTokenWorker();
  vi.restoreAllMocks();
});

describe("counting off the event loop", () => {
  it("counts a small message on the spot, as estimateMessageTokens does", async () => {
    const content: ContentBlock[] = [...text("hello world"), { type: "image", source: { type: "url", url: "u" } }];
    expect(await countMessageOffThread("user", content)).toBe(estimateMessageTokens("user", content));
    expect(await countMessageOffThread("assistant", [])).toBe(4);
  });

  it("counts large messages on the worker to the same figures, without stalling the event loop", async () => {
    const messages = Array.from({ length: 24 }, (_, i) => ({
      role: i % 2 ? ("assistant" as const) : ("user" as const),
      content: [...text(minified(100_000, i * 1_000)), { type: "tool_result" as const, tool_use_id: "t", content: "x".repeat(300_000) }],
    }));
    const t0 = performance.now();
    const expected = messages.map((m) => estimateMessageTokens(m.role, m.content));
    const inlineMs = performance.now() - t0;
    const { value, stallMs } = await longestStall(() => countMessagesOffThread(messages));
    expect(value).toEqual(expected);
    // The same count on the main thread took `inlineMs` (over a second on a quiet machine);
    // planning the pieces and copying them to the worker is what is left. Measured against
    // it, not a fixed figure, so a busy machine slows both alike.
    expect(stallMs).toBeLessThan(Math.max(100, inlineMs / 5));
  });

  it("counts on the main thread when the worker cannot load tiktoken", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const cwd = process.cwd();
    const content = text("lorem ipsum ".repeat(OFF_THREAD_FROM / 10));
    process.chdir("/");
    try {
      expect(await countMessageOffThread("user", content)).toBe(estimateMessageTokens("user", content));
      expect(await countMessageOffThread("user", content)).toBe(estimateMessageTokens("user", content));
    } finally {
      process.chdir(cwd);
    }
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
