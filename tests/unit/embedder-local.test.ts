import { afterEach, describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS, getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { LOCAL_EMBEDDING_MODEL, LocalLexicalEmbedder, splitIdentifier, stem } from "@/lib/memory/local-embedder";

const embedder = new LocalLexicalEmbedder(EMBEDDING_DIMENSIONS);
const vec = (text: string) => embedder.embedOne(text);
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: readonly number[]) => Math.sqrt(dot(a, a));
const cos = (a: string, b: string) => dot(vec(a), vec(b));

describe("getEmbedder without VOYAGE_API_KEY", () => {
  const saved = process.env.VOYAGE_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.VOYAGE_API_KEY;
    else process.env.VOYAGE_API_KEY = saved;
  });

  it("is the local lexical embedder, also when the key is blank", () => {
    delete process.env.VOYAGE_API_KEY;
    expect(getEmbedder().model).toBe(LOCAL_EMBEDDING_MODEL);
    process.env.VOYAGE_API_KEY = "  ";
    expect(getEmbedder().model).toBe("local-lexical-v1");
  });
});

describe("local lexical embedder", () => {
  it("returns one unit-length vector of EMBEDDING_DIMENSIONS per text, in order", async () => {
    const texts = ["PGlite with pgvector for the embedded database", "Compaction keeps the last turns verbatim", "x"];
    const vectors = await embedder.embed(texts, "document");
    expect(vectors).toHaveLength(3);
    for (const [i, v] of vectors.slice(0, 2).entries()) {
      expect(v).toHaveLength(1024);
      expect(norm(v)).toBeCloseTo(1, 12);
      expect(v).toEqual(vec(texts[i]));
    }
  });

  it("is deterministic across calls and instances, and symmetric for documents and queries", async () => {
    const text = "We decided to cache sessions in Redis; see lib/cache/sessionStore.ts";
    const other = new LocalLexicalEmbedder(EMBEDDING_DIMENSIONS);
    const [asDocument] = await embedder.embed([text], "document");
    const [asQuery] = await other.embed([text], "query");
    expect(asQuery).toEqual(asDocument);
    expect(vec(text)).toEqual(asDocument);
  });

  it("gives the zero vector (not NaN) for texts with nothing to embed", () => {
    for (const text of ["", "   ", "?!, -- ...", "the of and it is", "a b c"]) {
      const v = vec(text);
      expect(v).toHaveLength(1024);
      expect(v.every((x) => x === 0)).toBe(true);
    }
  });

  it("ranks an exact keyword match above a shared-stem variant above unrelated text", () => {
    const query = "caching sessions";
    const exact = "We added caching for sessions in the store";
    const variant = "The session cache was added to the store";
    const unrelated = "Billing invoices are emailed to customers monthly";
    expect(cos(query, exact)).toBeGreaterThan(cos(query, variant));
    expect(cos(query, variant)).toBeGreaterThan(cos(query, unrelated));
    expect(cos(query, variant)).toBeGreaterThan(0.3);
    expect(cos(query, unrelated)).toBeLessThan(0.15);
  });

  it("matches inflections through the stemmer", () => {
    expect(cos("create migrations", "created a migration")).toBeGreaterThan(0.6);
    expect(cos("embedding queries", "embedded query")).toBeGreaterThan(0.6);
    expect(cos("running tests", "run test")).toBeGreaterThan(0.6);
  });

  it("matches identifiers written as camelCase, snake_case or prose", () => {
    // Same parts and same joined word: the same vector.
    expect(vec("createSession")).toEqual(vec("create_session"));
    expect(vec("createSession")).toEqual(vec("CreateSession"));
    // Prose lacks the joined word, so it is close but not identical.
    const prose = cos("createSession", "create session");
    expect(prose).toBeGreaterThan(0.7);
    expect(prose).toBeLessThan(0.999);
    expect(cos("where do we create a session?", "Sessions are made in createSession() in lib/chat/sessions.ts")).toBeGreaterThan(
      cos("where do we create a session?", "Invoices are made in buildInvoice() in lib/billing/invoices.ts"),
    );
  });

  it("does not let stopwords create similarity", () => {
    // Stopwords are dropped before any feature is formed, bigrams included.
    expect(vec("The cat is on the mat")).toEqual(vec("cat mat"));
    expect(vec("What is it that they were doing there?").every((x) => x === 0)).toBe(true);
    const a = "it was the best of times and it was the worst of times";
    const b = "it was about the invoice that was sent to them by the";
    expect(cos(a, b)).toBeLessThan(0.1);
  });

  it("folds case and accents", () => {
    expect(vec("Café Résumé NAÏVE")).toEqual(vec("cafe resume naive"));
  });
});

describe("splitIdentifier", () => {
  it.each([
    ["createSession", ["create", "session"]],
    ["create_session", ["create", "session"]],
    ["CreateSession", ["create", "session"]],
    ["HTTPServer", ["http", "server"]],
    ["getURLsList", ["get", "urls", "list"]],
    ["IDs", ["ids"]],
    ["parseJSON2", ["parse", "json2"]],
    ["base64Encode", ["base64", "encode"]],
    ["__init__", ["init"]],
    ["MAX_BATCH_SIZE", ["max", "batch", "size"]],
    ["plain", ["plain"]],
    ["Capitalized", ["capitalized"]],
    ["sessionÉtat", ["session", "état"]],
  ])("%s → %j", (raw, parts) => {
    expect(splitIdentifier(raw)).toEqual(parts);
  });
});

describe("stem", () => {
  it.each([
    ["memories", "memory"],
    ["queries", "query"],
    ["queried", "query"],
    ["sessions", "session"],
    ["classes", "class"],
    ["status", "status"],
    ["analysis", "analysis"],
    ["running", "run"],
    ["embedded", "embed"],
    ["embeddings", "embed"],
    ["called", "call"],
    ["string", "string"],
    ["create", "creat"],
    ["creates", "creat"],
    ["created", "creat"],
    ["creating", "creat"],
    ["needed", "need"],
    ["speed", "speed"],
    ["urls", "url"],
    ["free", "free"],
  ])("%s → %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe("toPgVector", () => {
  it("formats compactly with up to six significant digits", () => {
    expect(toPgVector([0.1, -0.2, 1 / 3, 0, -0, 1, 1.23456789e-7])).toBe("[0.1,-0.2,0.333333,0,0,1,1.23457e-7]");
    expect(toPgVector([])).toBe("[]");
  });

  it("round-trips a real embedding closely", () => {
    const v = vec("hybrid search over memories with pgvector");
    const parsed = toPgVector(v).slice(1, -1).split(",").map(Number);
    expect(parsed).toHaveLength(1024);
    for (const [i, x] of parsed.entries()) expect(Math.abs(x - v[i])).toBeLessThanOrEqual(Math.abs(v[i]) * 1e-5);
  });

  it("rejects values pgvector cannot store", () => {
    expect(() => toPgVector([0, Number.NaN])).toThrow(/component 1/);
    expect(() => toPgVector([Number.POSITIVE_INFINITY])).toThrow(/finite/);
  });
});
