import net, { type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS, getEmbedder } from "@/lib/memory/embedder";
import { LocalLexicalEmbedder } from "@/lib/memory/local-embedder";
import { VOYAGE_MAX_BATCH, VoyageEmbedder, VoyageError } from "@/lib/memory/voyage";
import { FAKE_VOYAGE_KEY, startFakeVoyage, type FakeVoyage } from "../fake-voyage/server";

// The fake serves local-embedder vectors, so this is what Voyage "should" return for a text.
const local = new LocalLexicalEmbedder(EMBEDDING_DIMENSIONS);
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

interface SentBody {
  input: string[];
  model: string;
  input_type: string;
  output_dimension: number;
}
const bodyOf = (fake: FakeVoyage, i: number) => fake.requests[i].body as SentBody;

let fake: FakeVoyage;
const saved = { key: process.env.VOYAGE_API_KEY, url: process.env.VOYAGE_BASE_URL };

function restore(name: "VOYAGE_API_KEY" | "VOYAGE_BASE_URL", value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

beforeAll(async () => {
  fake = await startFakeVoyage();
});

afterAll(async () => {
  await fake.close();
  restore("VOYAGE_API_KEY", saved.key);
  restore("VOYAGE_BASE_URL", saved.url);
});

beforeEach(() => {
  fake.reset();
  process.env.VOYAGE_API_KEY = FAKE_VOYAGE_KEY;
  process.env.VOYAGE_BASE_URL = fake.url;
});

describe("Voyage embedder against the fake API", () => {
  it("is chosen by getEmbedder when VOYAGE_API_KEY is set", () => {
    const e = getEmbedder();
    expect(e).toBeInstanceOf(VoyageEmbedder);
    expect(e.model).toBe("voyage-3.5");
  });

  it("sends the documented request and returns normalized vectors in input order", async () => {
    const texts = ["PGlite with pgvector for the embedded database", "Billing invoices go out monthly", "createSession in lib/chat"];
    const vectors = await getEmbedder().embed(texts, "document");

    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/embeddings", authorization: `Bearer ${FAKE_VOYAGE_KEY}`, status: 200 });
    expect(req.body).toEqual({ input: texts, model: "voyage-3.5", input_type: "document", output_dimension: 1024 });

    // The fake lists data in reverse; the client must order by `index`.
    expect(vectors).toHaveLength(3);
    for (const [i, v] of vectors.entries()) {
      expect(v).toHaveLength(1024);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 9);
      expect(dot(v, local.embedOne(texts[i]))).toBeCloseTo(1, 9);
    }
  });

  it("sends input_type query for queries", async () => {
    await getEmbedder().embed(["which database did we pick?"], "query");
    expect(bodyOf(fake, 0).input_type).toBe("query");
  });

  it("splits more than 128 inputs into several requests and keeps the order", async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `memory number ${i} about topic${i % 7}`);
    const vectors = await getEmbedder().embed(texts, "document");

    expect(fake.requests.map((r) => (r.body as SentBody).input.length)).toEqual([VOYAGE_MAX_BATCH, VOYAGE_MAX_BATCH, 44]);
    expect(fake.requests.flatMap((r) => (r.body as SentBody).input)).toEqual(texts);
    expect(vectors).toHaveLength(300);
    for (const i of [0, 127, 128, 255, 256, 299]) expect(dot(vectors[i], local.embedOne(texts[i]))).toBeCloseTo(1, 9);
  });

  it("answers blank texts with zero vectors without sending them", async () => {
    const vectors = await getEmbedder().embed(["", "real text here", "   "], "document");
    expect(fake.requests).toHaveLength(1);
    expect(bodyOf(fake, 0).input).toEqual(["real text here"]);
    expect(vectors[0].every((x) => x === 0)).toBe(true);
    expect(vectors[2].every((x) => x === 0)).toBe(true);
    expect(dot(vectors[1], local.embedOne("real text here"))).toBeCloseTo(1, 9);

    await expect(getEmbedder().embed([], "query")).resolves.toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 429 and then succeeds", async () => {
    fake.failNext(429);
    const [v] = await getEmbedder().embed(["rate limited once"], "document");
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(dot(v, local.embedOne("rate limited once"))).toBeCloseTo(1, 9);
  });

  it("waits as long as retry-after says", async () => {
    fake.failNext(429, 1, { retryAfter: "1" });
    const started = Date.now();
    await getEmbedder().embed(["patience"], "document");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it("retries 5xx twice, then gives up with the API's message", async () => {
    fake.failNext(500, 2, { retryAfter: "0" });
    await getEmbedder().embed(["flaky"], "document");
    expect(fake.requests.map((r) => r.status)).toEqual([500, 500, 200]);

    fake.reset();
    fake.failNext(503, 3, { retryAfter: "0", message: "Service temporarily overloaded." });
    const err = await getEmbedder()
      .embed(["down"], "document")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VoyageError);
    expect((err as VoyageError).status).toBe(503);
    expect((err as VoyageError).message).toMatch(/HTTP 503.*after 3 attempts.*Service temporarily overloaded\./);
    expect(fake.requests).toHaveLength(3);
  });

  it("surfaces a 400 at once as an Error carrying the API's message", async () => {
    fake.failNext(400, 1, { message: "Input cannot contain empty strings." });
    const attempt = getEmbedder().embed(["anything"], "document");
    await expect(attempt).rejects.toThrow(Error);
    await expect(attempt).rejects.toThrow(/HTTP 400.*Input cannot contain empty strings\./);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a rejected key with the API's message", async () => {
    process.env.VOYAGE_API_KEY = "pa-wrong";
    await expect(getEmbedder().embed(["anything"], "document")).rejects.toThrow(/HTTP 401.*Provided API key is invalid\./);
    expect(fake.requests).toHaveLength(1);
  });

  it("fails clearly when the server is unreachable", async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const e = new VoyageEmbedder({ apiKey: FAKE_VOYAGE_KEY, baseUrl: `http://127.0.0.1:${port}/v1`, dimensions: 1024, baseBackoffMs: 1 });
    await expect(e.embed(["anything"], "document")).rejects.toThrow(/Voyage embeddings request failed: .*ECONNREFUSED/);
  });

  it("gives up on a request that exceeds the timeout, without retrying it", async () => {
    fake.delayNext(2_000);
    const e = new VoyageEmbedder({ apiKey: FAKE_VOYAGE_KEY, baseUrl: fake.url, dimensions: 1024, timeoutMs: 200 });
    await expect(e.embed(["slow"], "document")).rejects.toThrow(/timed out after 200 ms/);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("without VOYAGE_API_KEY", () => {
  afterEach(() => {
    process.env.VOYAGE_API_KEY = FAKE_VOYAGE_KEY;
  });

  it("getEmbedder is the local embedder and sends nothing", async () => {
    delete process.env.VOYAGE_API_KEY;
    const e = getEmbedder();
    expect(e.model).toBe("local-lexical-v1");
    await e.embed(["offline"], "query");
    expect(fake.requests).toHaveLength(0);
  });
});
