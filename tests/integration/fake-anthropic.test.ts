import { describe, it, expect, beforeAll, afterAll, beforeEach } from "vitest";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import {
  startFakeAnthropic,
  fakeTokenCount,
  countRequestTokens,
  type FakeAnthropic,
} from "../fake-anthropic/server";
import { fakeAnthropicControl } from "../fake-anthropic/control";

const MODEL = "claude-sonnet-5-5";

let fake: FakeAnthropic;
let client: Anthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 2 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

describe("fake tokenizer", () => {
  it("is ceil(1.15 × regex pieces) and differs from a plain word count", () => {
    expect(fakeTokenCount("")).toBe(0);
    expect(fakeTokenCount("hello")).toBe(2); // ceil(1.15)
    expect(fakeTokenCount("Hello, world!")).toBe(5); // 4 pieces → ceil(4.6)
    expect(fakeTokenCount("a b c d e f g h i j k l m n o p q r s t")).toBe(23); // exact 20 × 1.15
  });
});

describe("POST /v1/messages (streaming)", () => {
  it("streams text deltas and reports usage from the fake tokenizer", async () => {
    const system = "You are terse.";
    const text = "hello streaming world, how are you?";
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 256,
      system,
      messages: [{ role: "user", content: text }],
    });
    const deltas: string[] = [];
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    const reply = `Echo: ${text}`;
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(reply);
    expect(message.content).toEqual([{ type: "text", text: reply }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.role).toBe("assistant");
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.output_tokens).toBe(fakeTokenCount(reply));
    expect(message.usage.input_tokens).toBe(fakeTokenCount(`${system}\n${text}`) + 3);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(stream.request_id).toMatch(/^req_/);

    const recorded = fake.requests.at(-1);
    expect(recorded?.path).toBe("/v1/messages");
    // SDK 1.12.0 sends the API key as a bearer token, not x-api-key.
    expect(recorded?.headers.authorization).toBe("Bearer test");
    expect(recorded?.body?.stream).toBe(true);
  });

  it("sends the real raw event sequence", async () => {
    const events: string[] = [];
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "one two" }] });
    for await (const event of stream) events.push(event.type);
    const distinct = events.filter((e, i) => e !== events[i - 1]);
    expect(distinct).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });
});

describe("POST /v1/messages (non-streaming)", () => {
  it("returns a queued reply as a Message", async () => {
    fake.enqueue({ kind: "reply", text: "Queued answer.", stopReason: "max_tokens" });
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 32,
      messages: [{ role: "user", content: "anything" }],
    });
    expect(message.type).toBe("message");
    expect(message.content).toEqual([{ type: "text", text: "Queued answer." }]);
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage.output_tokens).toBe(fakeTokenCount("Queued answer."));
  });

  it("validates requests like the API and requires x-api-key", async () => {
    const post = (body: unknown, headers: Record<string, string> = { "x-api-key": "k" }) =>
      fetch(`${fake.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const noMaxTokens = await post({ model: MODEL, messages: [{ role: "user", content: "x" }] });
    expect(noMaxTokens.status).toBe(400);
    expect(await noMaxTokens.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });

    const assistantFirst = await post({ model: MODEL, max_tokens: 5, messages: [{ role: "assistant", content: "x" }] });
    expect(assistantFirst.status).toBe(400);

    const empty = await post({ model: MODEL, max_tokens: 5, messages: [] });
    expect(empty.status).toBe(400);

    const noKey = await post({ model: MODEL, max_tokens: 5, messages: [{ role: "user", content: "x" }] }, {});
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: { type: "authentication_error" } });
    expect(noKey.headers.get("request-id")).toMatch(/^req_/);
  });
});

describe("count_tokens", () => {
  it("equals usage.input_tokens for the same request (system blocks, tools, tool turns)", async () => {
    const tools: Anthropic.Tool[] = [
      {
        name: "get_weather",
        description: "Get the weather for a city",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ];
    const system: Anthropic.TextBlockParam[] = [{ type: "text", text: "System prompt, part one." }];
    const messages: Anthropic.MessageParam[] = [
      { role: "user", content: "What's the weather in Paris?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "Sunny, 24°C" }] },
    ];
    const counted = await client.messages.countTokens({ model: MODEL, system, tools, messages });
    const message = await client.messages.create({ model: MODEL, max_tokens: 100, system, tools, messages });

    expect(counted.input_tokens).toBe(message.usage.input_tokens);
    expect(counted.input_tokens).toBe(countRequestTokens({ system, tools, messages }));
    // A tool_result-only turn is echoed from the tool output.
    expect(message.content).toEqual([{ type: "text", text: "Echo: Sunny, 24°C" }]);
    // count_tokens does not consume queued steps.
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/messages/count_tokens", "/v1/messages"]);
  });
});

describe("errors and retries", () => {
  it("429 then success is retried by the SDK", async () => {
    fake.enqueue({ kind: "error", status: 429, retryAfter: 0 });
    const message = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "retry me" }] });
    expect(message.content).toEqual([{ type: "text", text: "Echo: retry me" }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1].headers["x-stainless-retry-count"]).toBe("1");
  });

  it("500 surfaces as APIError when retries are exhausted", async () => {
    const noRetry = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
    fake.enqueue({ kind: "error", status: 500 });
    const err = await noRetry.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).type).toBe("api_error");
    expect(fake.requests).toHaveLength(1);
  });

  it("529 is an overloaded_error", async () => {
    const noRetry = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
    fake.enqueue({ kind: "error", status: 529 });
    const err = await noRetry.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect((err as APIError).status).toBe(529);
    expect((err as APIError).type).toBe("overloaded_error");
  });

  it("too_long gives a 400 'prompt is too long'", async () => {
    fake.enqueue({ kind: "too_long" });
    const err = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).message).toContain("prompt is too long");
    expect(fake.requests).toHaveLength(1); // 400 is not retried

    // A prompt really over the 200k limit is rejected with its actual count, no step needed.
    const huge = "word ".repeat(180_000);
    const expected = countRequestTokens({ messages: [{ role: "user", content: huge }] });
    await expect(
      client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: huge }] }),
    ).rejects.toThrow(`prompt is too long: ${expected} tokens > 200000 maximum`);
  });

  it("drop makes the stream throw after some text", async () => {
    fake.enqueue({ kind: "drop", afterChunks: 2, text: "one two three four five six" });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "x" }] });
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(deltas.join("")).toBe("one two ");

    // Non-streaming: headers and half the JSON body arrive, then the connection is cut.
    fake.enqueue({ kind: "drop" });
    const noRetry = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
    await expect(
      noRetry.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow();
  });

  it("slow delays the stream and a client timeout aborts a slow request", async () => {
    fake.enqueue({ kind: "slow", delayMs: 500, text: "a b c d" });
    const started = Date.now();
    const text = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "x" }] })
      .finalText();
    expect(text).toBe("a b c d");
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);

    const noRetry = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0, timeout: 150 });
    fake.enqueue({ kind: "slow", delayMs: 2000 });
    const err = await noRetry.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
  });
});

describe("tool_use", () => {
  it("yields a tool_use block with parsed input (streaming and not)", async () => {
    const input = { city: "Paris", days: 3, units: { temp: "C" } };
    fake.enqueue({ kind: "tool_use", name: "get_weather", input, text: "Checking." });
    const streamed = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "weather?" }] })
      .finalMessage();
    expect(streamed.stop_reason).toBe("tool_use");
    expect(streamed.content[0]).toEqual({ type: "text", text: "Checking." });
    const block = streamed.content[1];
    expect(block.type).toBe("tool_use");
    if (block.type === "tool_use") {
      expect(block.name).toBe("get_weather");
      expect(block.input).toEqual(input);
      expect(block.id).toMatch(/^toolu_/);
    }

    fake.enqueue({ kind: "tool_use", name: "lookup", input: { q: "x" }, id: "toolu_fixed" });
    const created = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "go" }] });
    expect(created.content).toEqual([{ type: "tool_use", id: "toolu_fixed", name: "lookup", input: { q: "x" } }]);
  });
});

describe("directives in the last user message", () => {
  it("[[reply:hi there]] replies verbatim", async () => {
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "please [[reply:hi there]]" }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "hi there" }]);
  });

  it("[[fault:500]] fires once per message text, so the SDK retry succeeds", async () => {
    const content = "trigger [[fault:500]]";
    const message = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content }] });
    expect(message.content).toEqual([{ type: "text", text: `Echo: ${content}` }]);
    expect(fake.requests).toHaveLength(2);

    fake.reset(); // forgets fired faults too
    const noRetry = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
    await expect(
      noRetry.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content }] }),
    ).rejects.toBeInstanceOf(Anthropic.InternalServerError);
  });

  it("[[tool_use:name {json}]] and [[fault:too_long]]", async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user", content: 'use it [[tool_use:search {"q":"cats"}]]' }],
    });
    expect(message.content).toEqual([expect.objectContaining({ type: "tool_use", name: "search", input: { q: "cats" } })]);

    await expect(
      client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "[[fault:too_long]]" }] }),
    ).rejects.toThrow(/prompt is too long/);
  });
});

describe("standalone process", () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child?.pid && child.exitCode === null) child.kill("SIGTERM");
  });

  it("prints its URL and serves the control endpoints", async () => {
    const root = path.resolve(__dirname, "../..");
    child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "tests/fake-anthropic/server.ts"], {
      cwd: root,
      env: { ...process.env, FAKE_ANTHROPIC_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const proc = child;
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /fake-anthropic listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      proc.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
      proc.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });

    const control = fakeAnthropicControl(url);
    expect(await control.health()).toBe(true);

    await control.enqueue({ kind: "reply", text: "from the control endpoint" });
    const remote = new Anthropic({ apiKey: "test", baseURL: url, maxRetries: 0 });
    const message = await remote.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "hi" }] });
    expect(message.content).toEqual([{ type: "text", text: "from the control endpoint" }]);

    const requests = await control.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0].path).toBe("/v1/messages");
    expect(requests[0].body?.model).toBe(MODEL);

    const bad = await fetch(`${url}/__control/enqueue`, { method: "POST", body: JSON.stringify([{ kind: "nope" }]) });
    expect(bad.status).toBe(400);

    await control.reset();
    expect(await control.requests()).toEqual([]);

    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    proc.kill("SIGTERM");
    await exited;
  });
});

describe("prompt caching", () => {
  const cached = { type: "ephemeral" as const };
  const longSystem = "The project handbook says many things about schemas, retries and policies. ".repeat(120);
  const ask = (messages: Anthropic.MessageParam[], system: Anthropic.TextBlockParam[] = [{ type: "text", text: longSystem, cache_control: cached }]) =>
    client.messages.create({ model: MODEL, max_tokens: 16, system, messages });

  it("writes the prefix up to a breakpoint, then reads it; the three parts add up to count_tokens", async () => {
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "First question" }];
    const first = await ask(messages);
    const total = countRequestTokens({ system: [{ type: "text", text: longSystem }], messages });
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.usage.input_tokens + (first.usage.cache_creation_input_tokens ?? 0)).toBe(total);

    const second = await ask([{ role: "user", content: "Another question" }]);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
  });

  it("reads the previous request's prefix through a message breakpoint and writes only what is new", async () => {
    const turn1: Anthropic.MessageParam[] = [{ role: "user", content: [{ type: "text", text: "First question", cache_control: cached }] }];
    const a = await ask(turn1);
    const turn2: Anthropic.MessageParam[] = [
      { role: "user", content: [{ type: "text", text: "First question" }] },
      { role: "assistant", content: "An answer" },
      { role: "user", content: [{ type: "text", text: "Follow-up", cache_control: cached }] },
    ];
    const b = await ask(turn2);
    expect(b.usage.cache_read_input_tokens).toBe(a.usage.cache_creation_input_tokens);
    expect(b.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(b.usage.cache_creation_input_tokens).toBeLessThan(20);
  });

  it("caches nothing below the model's minimum, forgets after expiry, and rejects a fifth breakpoint", async () => {
    const short = await ask([{ role: "user", content: "hi" }], [{ type: "text", text: "Short.", cache_control: cached }]);
    expect(short.usage.cache_creation_input_tokens).toBe(0);

    await ask([{ role: "user", content: "one" }]);
    fake.expireCache();
    const cold = await ask([{ role: "user", content: "two" }]);
    expect(cold.usage.cache_read_input_tokens).toBe(0);

    const five = Array.from({ length: 5 }, (_, i): Anthropic.TextBlockParam => ({ type: "text", text: `part ${i}`, cache_control: cached }));
    const err = await ask([{ role: "user", content: "x" }], five).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).message).toMatch(/maximum of 4 blocks with cache_control/);
  });
});
