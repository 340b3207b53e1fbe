import { describe, expect, it, vi } from "vitest";
import { findAndRedact, placeholder, redactDeep, redactedPrefix, redactSecrets } from "@/lib/redact";
import { generateKey } from "@/lib/keys/format";
import { log, redactForLog } from "@/lib/log";

// Realistic-looking credentials (random, never real).
const ANTHROPIC = "sk-ant-api03-Zx9Kq2LmN4pR7sT1uV3wX5yA8bC0dE6fG-hJ_kL2mN4pQ6rS8tU0vW2xY4zA6bC8dE0fG2hJ4kL6mN8pQ0rS2tU4vW6xY8zA0bC2d-AA";
const OPENAI = "sk-proj-Q3vT9xW2yZ8aB1cD4eF7gH0iJ5kL6mN_oP2qR3sT4uV5wX6yZ7aB8cD9eF0gH1iJ2kL3mN4oP5qR6sT7uV8wX9yZ0-aB1cD2eF3gH4i";
const OPENAI_LEGACY = "sk-4fQ9zXbT2mLr8KpW1vYc6NhJ3dGs0aEuR5tBnM7qPxZk2LwV";
const GITHUB = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const GITHUB_PAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW";
const AWS = "AKIA2E0A8F3B244C9986";
const AWS_TEMP = "ASIAY34FZKBOKMUTVV7A";
const SLACK = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const PEM_BODY = ["MIIEowIBAAKCAQEAx5vQ3u2Zl0m0Xk9fP1c7qW3eR5tY7uI9oP1aS3dF5gH7jK9l", "Z1xC3vB5nM7qW9eR1tY3uI5oP7aS9dF1gH3jK5lZ7xC9vB1nM3qW5eR7tY9uI1o", "pQ2wE4rT6yU8iO0pA2sD4fG6hJ8kL0zX2cV4bN6mQ8wE0rT2yU4iO6pA8sD0fG=="];
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join("\n")}\n-----END RSA PRIVATE KEY-----`;

const r = (text: string) => redactSecrets(text);

describe("known key formats", () => {
  it.each([
    ["Anthropic", ANTHROPIC, "ANTHROPIC_API_KEY"],
    ["OpenAI project", OPENAI, "API_KEY"],
    ["OpenAI legacy", OPENAI_LEGACY, "API_KEY"],
    ["GitHub classic", GITHUB, "GITHUB_TOKEN"],
    ["GitHub OAuth", GITHUB.replace("ghp_", "gho_"), "GITHUB_TOKEN"],
    ["GitHub user-to-server", GITHUB.replace("ghp_", "ghu_"), "GITHUB_TOKEN"],
    ["GitHub server-to-server", GITHUB.replace("ghp_", "ghs_"), "GITHUB_TOKEN"],
    ["GitHub refresh", GITHUB.replace("ghp_", "ghr_"), "GITHUB_TOKEN"],
    ["GitHub fine-grained", GITHUB_PAT, "GITHUB_TOKEN"],
    ["AWS access key", AWS, "AWS_ACCESS_KEY_ID"],
    ["AWS temporary key", AWS_TEMP, "AWS_ACCESS_KEY_ID"],
    ["Slack bot", SLACK, "SLACK_TOKEN"],
    ["Slack user", SLACK.replace("xoxb", "xoxp"), "SLACK_TOKEN"],
    ["Slack app", SLACK.replace("xoxb", "xoxa"), "SLACK_TOKEN"],
    ["Slack refresh", SLACK.replace("xoxb", "xoxr"), "SLACK_TOKEN"],
    ["JWT", JWT, "JWT"],
    ["Stripe", "sk_live_51HqLyjWDarjtT1zdp7dcXwUQZ4pQbJkR", "STRIPE_SECRET_KEY"],
    ["Google", "AIzaSyD3xQ9kLm2Np4Rs6Tu8Vw0Yz1Ab3Cd5Ef7", "GOOGLE_API_KEY"],
    ["Supabase secret key", "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz", "SUPABASE_SECRET_KEY"],
  ])("%s", (_name, secret, kind) => {
    const text = `Here it is: ${secret} — use it for the deploy.`;
    const out = findAndRedact(text);
    expect(out.text).toBe(`Here it is: ${placeholder(kind)} — use it for the deploy.`);
    expect(out.kinds).toEqual([kind]);
  });

  it("redacts the file store's service key by its variable and by its format, not a placeholder", () => {
    expect(r("SUPABASE_SERVICE_ROLE_KEY=q8Zt4Wm2Lx7Rk9Pv3Ns6")).toBe("SUPABASE_SERVICE_ROLE_KEY=[redacted: SUPABASE_SERVICE_ROLE_KEY]");
    expect(r(`SUPABASE_SERVICE_ROLE_KEY=${JWT}`)).toBe("SUPABASE_SERVICE_ROLE_KEY=[redacted: JWT]");
    expect(r("SUPABASE_SERVICE_ROLE_KEY=sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz")).toBe("SUPABASE_SERVICE_ROLE_KEY=[redacted: SUPABASE_SECRET_KEY]");
    expect(r("sb_secret_your-key-here-please")).toBe("sb_secret_your-key-here-please");
  });

  it("finds keys inside quotes, JSON, headers and at line ends", () => {
    expect(r(`client = Anthropic(api_key="${ANTHROPIC}")`)).toBe(`client = Anthropic(api_key="[redacted: ANTHROPIC_API_KEY]")`);
    expect(r(`{"token":"${GITHUB}"}`)).toBe(`{"token":"[redacted: GITHUB_TOKEN]"}`);
    expect(r(`-H 'x-api-key: ${ANTHROPIC}'`)).toBe(`-H 'x-api-key: [redacted: ANTHROPIC_API_KEY]'`);
    expect(r(`key\n${AWS}\n`)).toBe(`key\n[redacted: AWS_ACCESS_KEY_ID]\n`);
  });

  it("redacts a JWT whose signature was cut off, and keeps a sentence's full stop", () => {
    const [header, payload] = JWT.split(".");
    expect(r(`cut: ${header}.${payload}`)).toBe("cut: [redacted: JWT]");
    expect(r(`Session token ${JWT}.`)).toBe("Session token [redacted: JWT].");
  });

  it("redacts Authorization credentials", () => {
    expect(r("curl -H 'Authorization: Bearer 0a1b2c3d4e5f6a7b8c9d0e1f2a3b'")).toBe("curl -H 'Authorization: Bearer [redacted: BEARER_TOKEN]'");
    expect(r(`Authorization: Bearer ${JWT}`)).toBe("Authorization: Bearer [redacted: JWT]");
    expect(r("Authorization: Basic dXNlcjpzM2NyZXRwYXNzd29yZA==")).toBe("Authorization: Basic [redacted: BASIC_AUTH]");
  });
});

describe("PEM private keys", () => {
  it("redacts whole multi-line blocks of every key type, nothing around them", () => {
    for (const type of ["RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "DSA ", ""]) {
      const pem = PEM.replaceAll("RSA ", type);
      expect(r(`Here:\n${pem}\nthanks`)).toBe("Here:\n[redacted: PRIVATE_KEY]\nthanks");
    }
  });

  it("redacts a key written with \\n escapes inside JSON (a service-account file)", () => {
    const json = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY.join("\\n")}\\n-----END PRIVATE KEY-----\\n", "client_email": "svc@proj.iam.gserviceaccount.com"}`;
    const out = r(json);
    expect(out).toBe(
      `{"type": "service_account", "private_key": "[redacted: PRIVATE_KEY]\\n", "client_email": "svc@proj.iam.gserviceaccount.com"}`,
    );
  });

  it("redacts a key cut before its END line (a truncated preview or tool input)", () => {
    const cut = `key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY[0]}\n${PEM_BODY[1].slice(0, 40)}`;
    const out = r(cut);
    expect(out).toBe("key:\n[redacted: PRIVATE_KEY]");
    for (const line of PEM_BODY) expect(out).not.toContain(line.slice(0, 16));
  });

  it("leaves public keys and certificates alone", () => {
    const pub = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----";
    expect(r(pub)).toBe(pub);
  });
});

describe("passwords in connection URLs", () => {
  it.each([
    ["postgres://app:S3cretPass@db.internal:5432/prod", "postgres://app:[redacted: PASSWORD]@db.internal:5432/prod"],
    ["postgresql://postgres.abcd:pa$$w0rd!@aws-0-eu.pooler.supabase.com:6543/postgres", "postgresql://postgres.abcd:[redacted: PASSWORD]@aws-0-eu.pooler.supabase.com:6543/postgres"],
    ["mysql://root:hunter2@localhost/app", "mysql://root:[redacted: PASSWORD]@localhost/app"],
    ["mongodb+srv://admin:x7Yq%40z@cluster0.mongodb.net/?retryWrites=true", "mongodb+srv://admin:[redacted: PASSWORD]@cluster0.mongodb.net/?retryWrites=true"],
    ["redis://:p4ssw0rd@cache:6379/0", "redis://:[redacted: PASSWORD]@cache:6379/0"],
    ["https://deploy:ab/cd+ef==@git.example.com/repo.git", "https://deploy:[redacted: PASSWORD]@git.example.com/repo.git"],
    ["DATABASE_URL=postgres://app:S3cretPass@db/app", "DATABASE_URL=postgres://app:[redacted: PASSWORD]@db/app"],
  ])("%s", (text, expected) => {
    expect(r(text)).toBe(expected);
  });

  it("leaves URLs without a password, ports and placeholders alone", () => {
    for (const text of [
      "https://localhost:3000/@vite/client",
      "https://registry.npmjs.org:443/@scope%2fpkg",
      "ssh://git@github.com:22/org/repo.git",
      "git@github.com:org/repo.git",
      "postgres://user:password@localhost:5432/db",
      "postgres://postgres:[YOUR-PASSWORD]@db.abcd.supabase.co:5432/postgres",
      "postgres://app:${PGPASSWORD}@db/app",
      "postgres://app:<password>@db/app",
      "postgres://app:***@db/app",
      "mailto:someone@example.com",
    ]) {
      expect(r(text)).toBe(text);
    }
  });
});

describe("variables named like credentials", () => {
  it.each([
    ["STRIPE_SECRET=whsec_abc123def456", "STRIPE_SECRET=[redacted: STRIPE_SECRET]"],
    ["export STRIPE_SECRET=whsec_abc123def456", "export STRIPE_SECRET=[redacted: STRIPE_SECRET]"],
    ['export OPENAI_KEY="abc123def456ghi"', 'export OPENAI_KEY="[redacted: OPENAI_KEY]"'],
    ["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY=[redacted: AWS_SECRET_ACCESS_KEY]"],
    ["DB_PASSWORD=MySecretPass", "DB_PASSWORD=[redacted: DB_PASSWORD]"],
    ["db_password: hunter2", "db_password: [redacted: db_password]"],
    ["  POSTGRES_PASSWORD: hunter", "  POSTGRES_PASSWORD: [redacted: POSTGRES_PASSWORD]"],
    ['"password": "correct horse battery staple"', '"password": "[redacted: password]"'],
    ['{"client_secret":"a1b2c3d4e5","x":1}', '{"client_secret":"[redacted: client_secret]","x":1}'],
    ['"apiKey": "abcDEF123456ghiJKL"', '"apiKey": "[redacted: apiKey]"'],
    ["'auth_token' => 'f00dbabe1234'", "'auth_token' => '[redacted: auth_token]'"],
    ["GITHUB_TOKEN: 0123456789abcdef", "GITHUB_TOKEN: [redacted: GITHUB_TOKEN]"],
    ["SLACK_BOT_TOKEN = 'abcd-1234-efgh'", "SLACK_BOT_TOKEN = '[redacted: SLACK_BOT_TOKEN]'"],
    ["mysql --password=hunter22 --user=root", "mysql --password=[redacted: password] --user=root"],
    ["?api_key=abc123xyz&page=2", "?api_key=[redacted: api_key]&page=2"],
    ["Server=db;User Id=sa;Password=Passw0rd!;", "Server=db;User Id=sa;Password=[redacted: Password];"],
    ["Then set DB_PASSWORD=hunter2.", "Then set DB_PASSWORD=[redacted: DB_PASSWORD]."],
    ["spring.datasource.password=s3cr3t", "spring.datasource.password=[redacted: spring.datasource.password]"],
    ['const password: string = "hunter2";', 'const password: string = "[redacted: password]";'],
    ["x-api-key: zyx987654321abc", "x-api-key: [redacted: x-api-key]"],
    ['{\\"api_key\\": \\"abc123secretvalue\\"}', '{\\"api_key\\": \\"[redacted: api_key]\\"}'],
    ["PIN: PASSWORD=483920", "PIN: PASSWORD=[redacted: PASSWORD]"],
  ])("%s", (text, expected) => {
    expect(r(text)).toBe(expected);
  });

  it("redacts every line of an .env paste and keeps the rest", () => {
    const env = [
      "# production",
      "NODE_ENV=production",
      "PORT=3000",
      `ANTHROPIC_API_KEY=${ANTHROPIC}`,
      "SESSION_SECRET=9f8e7d6c5b4a",
      "DATABASE_URL=postgres://app:S3cretPass@db:5432/app",
      "MAX_TOKENS=4096",
    ].join("\n");
    expect(r(env)).toBe(
      [
        "# production",
        "NODE_ENV=production",
        "PORT=3000",
        "ANTHROPIC_API_KEY=[redacted: ANTHROPIC_API_KEY]",
        "SESSION_SECRET=[redacted: SESSION_SECRET]",
        "DATABASE_URL=postgres://app:[redacted: PASSWORD]@db:5432/app",
        "MAX_TOKENS=4096",
      ].join("\n"),
    );
  });
});

describe("what is not a secret", () => {
  it.each([
    // "sk-" inside words and kebab-case names.
    "the task-runner-v2-2024-abcdefghijklmnop and risk-assessment-framework-2024-final",
    "<div class=\"sk-circle-bounce-delay-long sk-fading-circle\">",
    "desk-0123456789abcdefghijklmnop",
    // Names that only look like credentials.
    "TOKEN_COUNT=5 MAX_TOKENS=4096 max_token=12 input_tokens: 1200",
    "primary_key=True, foreign_key: user_id, cache_key = \"user:1\", sort_key: 'createdAt'",
    'eos_token="</s>", pad_token: "<pad>", next_page_token: "CAUQAA"',
    "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY=sb_publishable_abc123",
    "PASSWORD_MIN_LENGTH=12, password_reset_url: https://example.com/reset",
    // Placeholders and references.
    "API_KEY=your-key-here",
    "ANTHROPIC_API_KEY=YOUR_API_KEY",
    "TOKEN=<token>",
    "SECRET_KEY=${SECRET_KEY}",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "const API_KEY = process.env.API_KEY;",
    "api_key = os.environ['ANTHROPIC_API_KEY']",
    "PASSWORD=***",
    "DB_PASSWORD=xxxxxxxx",
    'api_key: "<your key>"',
    "sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx and sk-ant-... and sk-...",
    "sk-ant-api03-your-key-here-0000000000000000",
    "AKIAIOSFODNN7EXAMPLE",
    "xoxb-your-token-here",
    "postgres://user:password@localhost/db",
    // Code and types.
    "password: string;",
    "password?: string;",
    "password: z.string().min(8),",
    "{ password: newPassword, token: accessToken }",
    "api_key: str = Field(...)",
    "if (password == \"x\") return; if (api_key != 'y') return;",
    "const token = await getToken();",
    "self.secret_key = settings.SECRET_KEY",
    "reset_password: true, remember_token: null",
    // Prose.
    "ANTHROPIC_API_KEY: required for Claude; without it the offline responder answers.",
    "Set the api_key: the one from your console.",
    "The key is to keep the token budget small. Password managers help.",
    "Bearer tokens are sent in the Authorization header.",
  ])("%s", (text) => {
    expect(r(text)).toBe(text);
  });

  it("leaves ordinary prose and code byte for byte", () => {
    const code = [
      "```ts",
      "export async function createSession(userId: string) {",
      '  const key = `session:${userId}`;',
      "  const tokens = estimateTextTokens(text); // token count",
      '  return db.insert(sessions).values({ userId, key, title: "New session" });',
      "}",
      "```",
      "We decided to use PGlite for the embedded mode. See src/db/schema.ts and https://example.com/docs/rls.",
      "Error: ECONNRESET while streaming the reply.",
    ].join("\n");
    expect(findAndRedact(code)).toEqual({ text: code, kinds: [] });
  });
});

describe("Threadkeeper's own API keys", () => {
  const { secret } = generateKey();

  it("redacts a generated tk_live_ key wherever it is pasted", () => {
    for (const text of [`use ${secret} for the bot`, `curl -H "Authorization: Bearer ${secret}" …`, `TK_KEY=${secret}`, `{"key":"${secret}"}`]) {
      const out = findAndRedact(text);
      expect(out.text).not.toContain(secret.slice(8));
      expect(out.text).not.toContain(secret.slice(-20));
    }
    expect(findAndRedact(`the key ${secret}.`)).toEqual({ text: `the key ${placeholder("THREADKEEPER_API_KEY")}.`, kinds: ["THREADKEEPER_API_KEY"] });
  });

  it("leaves placeholders and the bare prefix alone", () => {
    for (const text of ["tk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "tk_live_your-key-here-please", "keys start with tk_live_ and are 46 characters"]) {
      expect(r(text)).toBe(text);
    }
  });
});

describe("idempotency", () => {
  const fixtures = [
    `my key is ${ANTHROPIC} and the db is postgres://app:S3cretPass@db/app`,
    `export STRIPE_SECRET=whsec_abc123def456\nANTHROPIC_API_KEY="${ANTHROPIC}"`,
    `"private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY.join("\\n")}\\n-----END PRIVATE KEY-----\\n"`,
    `${PEM}\nAuthorization: Bearer ${JWT}`,
    `DB_PASSWORD_URL=postgres://app:S3cretPass@db/app GITHUB_TOKEN=${GITHUB} token=${SLACK}`,
    `{"password": "${AWS}", "aws": "${AWS_TEMP}"}`,
  ];

  it.each(fixtures)("redacting twice changes nothing: %s", (text) => {
    const once = r(text);
    expect(once).not.toBe(text);
    expect(r(once)).toBe(once);
    expect(findAndRedact(once).kinds).toEqual([]);
  });

  it("leaves placeholders alone, whatever the name around them", () => {
    for (const text of ["STRIPE_SECRET=[redacted: STRIPE_SECRET]", '"password": "[redacted: PASSWORD]"', "postgres://app:[redacted: PASSWORD]@db/app", "token [redacted: JWT]."]) {
      expect(r(text)).toBe(text);
    }
  });

  it("reports each kind once", () => {
    const out = findAndRedact(`${JWT} ${ANTHROPIC} ${JWT} postgres://a:S3cretPass@h STRIPE_SECRET=abc123def`);
    expect([...out.kinds].sort()).toEqual(["ANTHROPIC_API_KEY", "JWT", "PASSWORD", "STRIPE_SECRET"]);
  });
});

describe("helpers", () => {
  it("redactSecrets passes null through", () => {
    expect(redactSecrets(null)).toBeNull();
  });

  it("redactDeep redacts strings inside arrays and plain objects and copies, without changing the input", () => {
    const items = [
      { kind: "config", text: "STRIPE_SECRET=whsec_abc123def456" },
      { kind: "code_block", text: `\`\`\`\nexport ANTHROPIC_API_KEY=${ANTHROPIC}\n\`\`\`` },
    ];
    const copy = structuredClone(items);
    const out = redactDeep({ items, tags: ["config", GITHUB], count: 2, when: new Date(0) });
    expect(out.items.map((i) => i.text)).toEqual(["STRIPE_SECRET=[redacted: STRIPE_SECRET]", "```\nexport ANTHROPIC_API_KEY=[redacted: ANTHROPIC_API_KEY]\n```"]);
    expect(out.tags).toEqual(["config", "[redacted: GITHUB_TOKEN]"]);
    expect(out.count).toBe(2);
    expect(out.when).toBeInstanceOf(Date);
    expect(items).toEqual(copy);
  });

  it("redactedPrefix redacts before cutting, so a key across the cut leaks nothing", () => {
    const text = `${"a".repeat(180)} ${ANTHROPIC} and more`;
    const cut = redactedPrefix(text, 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).not.toContain("sk-ant");
    // A naive cut would have kept the key's first characters.
    expect(text.slice(0, 200)).toContain("sk-ant-api03");
  });

  it("redactedPrefix never ends inside a placeholder", () => {
    const cut = redactedPrefix(`${"b".repeat(190)} ${ANTHROPIC}`, 200);
    expect(cut).toBe("b".repeat(190));
    expect(redactedPrefix("short text", 200)).toBe("short text");
  });

  it("redactedPrefix catches a private key that runs past the cut", () => {
    const cut = redactedPrefix(`Key: ${PEM}`, 60);
    expect(cut).toBe("Key: [redacted: PRIVATE_KEY]");
  });
});

describe("server logs", () => {
  it("redact strings, Error messages, stacks, causes and an error's own fields", () => {
    const cause = new Error(`connect failed for postgres://app:S3cretPass@db/app`);
    const err = Object.assign(new Error(`insert failed: ${ANTHROPIC}`, { cause }), {
      detail: `Failing row contains (1, export STRIPE_SECRET=whsec_abc123def456).`,
      code: "23514",
    });
    const out = redactForLog(err);
    expect(out).toBeInstanceOf(Error);
    const seen = JSON.stringify({ out, message: (out as Error).message, stack: (out as Error).stack, cause: String((out as Error).cause) });
    expect(seen).not.toContain("sk-ant-api03");
    expect(seen).not.toContain("S3cretPass");
    expect(seen).not.toContain("whsec_abc123def456");
    expect((out as Error).message).toBe("insert failed: [redacted: ANTHROPIC_API_KEY]");
    expect((out as Error).stack).toContain("insert failed: [redacted: ANTHROPIC_API_KEY]");
    expect(String((out as Error).cause)).toContain("postgres://app:[redacted: PASSWORD]@db/app");
    expect(out).toMatchObject({ code: "23514", detail: "Failing row contains (1, export STRIPE_SECRET=[redacted: STRIPE_SECRET])." });
    // The original error is untouched: only the logged copy changes.
    expect(err.message).toContain(ANTHROPIC);
  });

  it("redact plain data and survive cycles", () => {
    const body: Record<string, unknown> = { content: `my key ${GITHUB}`, n: 1, nested: [{ token: JWT }] };
    body.self = body;
    expect(redactForLog(body)).toEqual({ content: "my key [redacted: GITHUB_TOKEN]", n: 1, nested: [{ token: "[redacted: JWT]" }], self: "[…]" });
  });

  it("log.error writes the redacted arguments to the console", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      log.error("[threadkeeper] failed for", `DB_PASSWORD=hunter22`, new Error(`bad ${AWS}`));
      const [prefix, line, error] = spy.mock.calls[0] as [string, string, Error];
      expect(prefix).toBe("[threadkeeper] failed for");
      expect(line).toBe("DB_PASSWORD=[redacted: DB_PASSWORD]");
      expect(error.message).toBe("bad [redacted: AWS_ACCESS_KEY_ID]");
    } finally {
      spy.mockRestore();
    }
  });
});
