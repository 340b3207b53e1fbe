// Text for the memory benchmark: session-summary-like memories and search queries drawn from a
// seeded vocabulary of development topics, and conversations with planted facts for the
// retrieval-quality check (each fact paired with a question a user would ask about it, worded
// differently, and a decoy turn elsewhere that shares some of its terms).
import { assistantText, int, pick, rng, userText, type Rand } from "./corpus";

const TECH = [
  "pgvector", "Redis Streams", "BullMQ", "Drizzle ORM", "server actions", "SWR", "Zod schemas", "a materialized view",
  "HNSW indexes", "row-level security", "Playwright", "tRPC", "Server-Sent Events", "a Postgres advisory lock", "Temporal",
  "OpenTelemetry", "Kafka", "GraphQL", "Tailwind", "React Query", "Prisma", "pg_cron", "Cloudflare Workers", "Vitest",
  "esbuild", "Turborepo", "Docker Compose", "Terraform", "Helm charts", "GitHub Actions", "Sentry", "Grafana", "S3 presigned URLs",
  "WebSockets", "JWT refresh tokens", "OAuth PKCE", "feature flags", "a token bucket", "a dead-letter queue", "logical replication",
];
const PURPOSE = [
  "the job queue", "session caching", "memory search", "input validation", "the audit log", "rate limiting", "billing webhooks",
  "the settings page", "the export worker", "search ranking", "the onboarding flow", "image uploads", "email notifications",
  "the admin dashboard", "tenant isolation", "the mobile API", "report generation", "the CSV importer", "password resets",
  "the analytics pipeline", "invoice numbering", "the permissions model", "the public API", "background sync", "the chat widget",
];
const ALT = [
  "a cron table", "Memcached", "plain fetch calls", "hand-written SQL", "polling", "a separate microservice", "Elasticsearch",
  "JWT cookies", "long polling", "a Kafka topic", "a nightly batch", "an in-process LRU", "DynamoDB", "RabbitMQ", "MongoDB",
];
const AREAS = ["auth", "billing", "jobs", "memory", "api", "ui/components", "db/migrations", "workers", "lib/cache", "server/routes", "infra", "mobile", "search", "exports", "notifications"];
const NAMES = [
  "rateLimiter", "sessionStore", "webhookHandler", "retryPolicy", "embeddingClient", "auditWriter", "exportQueue", "searchIndex",
  "settingsForm", "tokenBucket", "invoiceNumberer", "tenantGuard", "uploadSigner", "reportBuilder", "csvParser", "featureFlags",
  "syncCursor", "permissionCheck", "mailer", "metricsExporter",
];
const TABLES = ["invoices", "audit_events", "memories", "sessions", "webhooks", "exports", "api_keys", "tenants", "uploads", "notifications", "reports", "users"];
const ENV_KEYS = ["QUEUE_CONCURRENCY", "CACHE_TTL_SECONDS", "EMBEDDING_BATCH_SIZE", "MAX_UPLOAD_MB", "WEBHOOK_RETRY_LIMIT", "SEARCH_TOP_K", "EXPORT_CHUNK_ROWS", "SESSION_IDLE_MINUTES", "RATE_LIMIT_RPM"];
const BUGS = [
  "a race between two writers", "an N+1 query", "a missing index", "a stale closure", "an off-by-one in pagination",
  "a timezone bug", "a memory leak in the worker", "a deadlock between migrations", "double-charged webhooks", "a flaky test",
  "a broken retry loop", "an unbounded cache", "a CORS misconfiguration", "a lost update", "a slow full-text query",
];
const OUTCOMES = [
  "p95 latency dropped from {a} ms to {b} ms", "the test suite went green again", "memory stayed flat at {a} MB", "the error rate fell below {c} %",
  "the import of {a},000 rows now finishes in {c} s", "CI time went from {c} to {d} minutes", "no more duplicate rows after {a} runs",
];
const NEXT = [
  "add a regression test for empty {t}", "backfill {t} for legacy accounts", "document the retention policy for {t}",
  "add an index on {t}(user_id, created_at)", "drop the legacy state column from {t}", "rotate the signing secret used by {t}",
  "move {n} behind a feature flag", "load-test {p} at twice the current traffic", "split {n} into smaller modules",
];

function fill(r: Rand, s: string): string {
  return s
    .replaceAll("{a}", String(int(r, 12, 980)))
    .replaceAll("{b}", String(int(r, 5, 90)))
    .replaceAll("{c}", String(int(r, 1, 40)))
    .replaceAll("{d}", String(int(r, 1, 9)))
    .replaceAll("{t}", pick(r, TABLES))
    .replaceAll("{n}", pick(r, NAMES))
    .replaceAll("{p}", pick(r, PURPOSE));
}

const path = (r: Rand) => `${pick(r, AREAS)}/${pick(r, NAMES)}.${pick(r, ["ts", "ts", "tsx", "sql", "py"])}`;

const SENTENCES: readonly ((r: Rand) => string)[] = [
  (r) => `Decided to use ${pick(r, TECH)} for ${pick(r, PURPOSE)} instead of ${pick(r, ALT)}.`,
  (r) => {
    const p = pick(r, PURPOSE);
    return `${p[0].toUpperCase()}${p.slice(1)} was failing because of ${pick(r, BUGS)}; fixed in ${path(r)}.`;
  },
  (r) => `The ${pick(r, NAMES)} in ${path(r)} now ${pick(r, ["retries with exponential backoff", "batches writes", "checks the tenant id first", "streams results", "caches for five minutes", "runs inside one transaction"])}.`,
  (r) => `Set ${pick(r, ENV_KEYS)}=${int(r, 2, 500)} in staging and production.`,
  (r) => `After the change ${fill(r, pick(r, OUTCOMES))}.`,
  (r) => `Next step: ${fill(r, pick(r, NEXT))}.`,
  (r) => `We compared ${pick(r, TECH)} with ${pick(r, ALT)} for ${pick(r, PURPOSE)} and kept ${pick(r, TECH)} for its ${pick(r, ["simpler operations", "lower latency", "stronger consistency", "better typing", "smaller bundle", "cheaper hosting"])}.`,
  (r) => `The migration for ${pick(r, TABLES)} adds ${pick(r, ["a nullable column", "a partial index", "a check constraint", "a foreign key", "a generated column"])} and runs without locking writes.`,
  (r) => `Open question: should ${pick(r, PURPOSE)} live in ${pick(r, AREAS)} or in ${pick(r, AREAS)}?`,
  (r) => `${pick(r, ["Renamed", "Extracted", "Deleted", "Rewrote", "Typed"])} ${pick(r, NAMES)} and updated ${int(r, 2, 30)} call sites.`,
];

export interface MemoryText {
  summary: string;
  keyDecisions: string[];
  codeReferences: string[];
  tags: string[];
}

/** One session-summary-like memory: 4–8 sentences (about 60–130 words), a decision, some files. */
export function memoryText(r: Rand): MemoryText {
  const n = int(r, 4, 8);
  const parts: string[] = [`Session about ${pick(r, PURPOSE)} (${pick(r, AREAS)}).`];
  for (let i = 0; i < n; i++) parts.push(pick(r, SENTENCES)(r));
  const files = Array.from({ length: int(r, 1, 3) }, () => path(r));
  return {
    summary: parts.join(" "),
    keyDecisions: [`Use ${pick(r, TECH)} for ${pick(r, PURPOSE)}`],
    codeReferences: files,
    tags: [pick(r, ["decision", "file_path", "identifier", "error", "command"])],
  };
}

const QUERY_FORMS: readonly ((r: Rand) => string)[] = [
  (r) => `how did we set up ${pick(r, PURPOSE)} with ${pick(r, TECH)}?`,
  (r) => `why did we pick ${pick(r, TECH)} over ${pick(r, ALT)}`,
  (r) => `${pick(r, NAMES)} ${pick(r, BUGS)}`,
  (r) => `what was the fix for ${pick(r, BUGS)} in ${pick(r, AREAS)}`,
  (r) => `${pick(r, ENV_KEYS)} value in production`,
  (r) => `migration on ${pick(r, TABLES)} without locking`,
];

/** A search query in the words a user would type, over the same vocabulary. */
export function queryText(r: Rand): string {
  return pick(r, QUERY_FORMS)(r);
}

// ------------------------------------------------------------ planted facts

export interface PlantedFact {
  /** The turn that states the fact. */
  fact: string;
  /** What a user later asks: different wording, some shared key terms. */
  question: string;
  /** A turn in another conversation that shares terms with the fact but does not state it. */
  decoy: string;
}

export const PLANTED_FACTS: readonly PlantedFact[] = [
  {
    fact: "Heads up: the staging database password rotates every 14 days via scripts/rotate_creds.sh, so never hardcode it in .env.staging.",
    question: "how often does the staging db password rotate?",
    decoy: "The staging database ran out of disk again last night; I bumped the volume to 100 GB.",
  },
  {
    fact: "We pinned Node to 20.11 in .nvmrc because the 21.x line broke the sharp image resizer on Alpine.",
    question: "why is node pinned to an older version?",
    decoy: "Node 20 is fine for the worker; the only change is the new fetch implementation.",
  },
  {
    fact: "The Stripe webhook signing secret lives in 1Password under billing-prod-webhook, not in Vault.",
    question: "where do we keep the stripe webhook secret?",
    decoy: "Stripe retries failed webhooks for up to three days, so the handler must be idempotent.",
  },
  {
    fact: "Feature flags are evaluated server-side with a 60-second cache in lib/flags/cache.ts, so toggles take up to a minute to show.",
    question: "why do feature flag changes take a while to appear?",
    decoy: "Let's remove the old checkout feature flag now that the rollout reached everyone.",
  },
  {
    fact: "Production deploys are frozen every Friday after 14:00 UTC; a hotfix needs sign-off from Priya.",
    question: "who has to approve a hotfix during the friday deploy freeze?",
    decoy: "The Friday deploy went out cleanly, nothing to roll back.",
  },
  {
    fact: "The CSV export worker caps each file at 50,000 rows and splits larger exports into numbered parts.",
    question: "what's the row limit per csv export file?",
    decoy: "The CSV importer chokes on files with a byte order mark; strip it before parsing.",
  },
  {
    fact: "Our Postgres connection pool is max_pool_size=25 per instance because RDS allows 200 connections in total.",
    question: "what connection pool size do we use per instance?",
    decoy: "Postgres vacuum was falling behind on the events table, so I tuned autovacuum_vacuum_scale_factor.",
  },
  {
    fact: "Session cookies expire after 12 hours of inactivity, while the refresh token lasts 30 days.",
    question: "how long until an idle session cookie expires?",
    decoy: "The session list page is slow because it loads every message count separately.",
  },
  {
    fact: "Search ranking uses BM25 with the title boosted 3x over the body text.",
    question: "how much is the title boosted in search ranking?",
    decoy: "Search results flicker while typing; debounce the input by 200 ms.",
  },
  {
    fact: "Image uploads go to the S3 bucket tk-user-uploads-eu in eu-west-1, and a lifecycle rule deletes temp/ after 7 days.",
    question: "which s3 bucket stores user image uploads?",
    decoy: "Uploads over 10 MB time out on mobile networks; switch to multipart.",
  },
  {
    fact: "The nightly backup job runs at 02:30 UTC and keeps 35 daily snapshots.",
    question: "when does the nightly backup run and how many snapshots do we keep?",
    decoy: "Restoring last week's backup into a scratch database took 40 minutes.",
  },
  {
    fact: "Rate limiting allows 120 requests per minute per API key, enforced by a token bucket in Redis.",
    question: "what's the rate limit for each api key?",
    decoy: "The API key page should show when each key was last used.",
  },
  {
    fact: "We chose Argon2id over bcrypt for password hashing, with a memory cost of 64 MB.",
    question: "which password hashing algorithm did we go with?",
    decoy: "Password reset emails land in spam for Outlook users; check the SPF record.",
  },
  {
    fact: "The mobile app's minimum supported iOS version is 16.4 because we rely on the new push notification API.",
    question: "what's the minimum ios version the mobile app supports?",
    decoy: "The mobile app crashes on Android 12 when the camera permission is denied.",
  },
  {
    fact: "Sentry samples 20% of transactions in production and 100% in staging.",
    question: "what sample rate do we use for sentry transactions in prod?",
    decoy: "Sentry grouped two unrelated errors together; add a fingerprint to split them.",
  },
  {
    fact: "Invoices are numbered per tenant with the prefix INV- and a yearly reset, generated in billing/numbering.ts.",
    question: "how are invoice numbers generated?",
    decoy: "The invoice PDF cuts off long company names in the header.",
  },
  {
    fact: "The GraphQL gateway times out downstream calls after 8 seconds and retries idempotent queries once.",
    question: "what timeout does the graphql gateway use for downstream services?",
    decoy: "GraphQL codegen is slow in watch mode; run it only on schema changes.",
  },
  {
    fact: "Translations are managed in Crowdin and synced on every merge to main by the i18n-sync workflow.",
    question: "how do translations get synced from crowdin?",
    decoy: "Some translations overflow the buttons in German; allow the text to wrap.",
  },
  {
    fact: "Soft-deleted accounts are purged permanently after 90 days by the purge_accounts cron job.",
    question: "when are soft deleted accounts permanently removed?",
    decoy: "Deleted accounts still show up in the admin search because the index is not refreshed.",
  },
  {
    fact: "The on-call rotation switches every Monday at 10:00 and lives in the PagerDuty schedule core-platform.",
    question: "when does the on-call rotation switch over?",
    decoy: "On-call got paged twice for the same disk alert; dedupe the alerts.",
  },
  {
    fact: "Elasticsearch reindexing must go through the alias products_live so indexes can be swapped with zero downtime.",
    question: "which alias should reindexing use to avoid downtime?",
    decoy: "Elasticsearch heap usage is at 85 %, we should add a node before the sale.",
  },
  {
    fact: "Docker images are built on the distroless base to stay under 90 MB; debugging uses the :debug tag.",
    question: "what base image do our docker images use?",
    decoy: "Docker Compose on the new laptops needs the file sharing setting for the repo folder.",
  },
  {
    fact: "The analytics events table is partitioned by month, and partitions older than 13 months are detached.",
    question: "how is the analytics events table partitioned?",
    decoy: "Analytics dashboards show yesterday's numbers until the 6 am refresh.",
  },
  {
    fact: "Email sending goes through Postmark, with SES only as a failover when Postmark returns 5xx errors.",
    question: "which provider sends our email and what's the fallback?",
    decoy: "Email templates need a plain-text part or some clients show nothing.",
  },
  {
    fact: "The maximum upload size is 25 MB, set by MAX_UPLOAD_MB, and nginx client_max_body_size matches it.",
    question: "what is the max file upload size?",
    decoy: "Nginx logs rotate daily and are shipped to the log bucket.",
  },
  {
    fact: "Dark mode colours come from the tokens in design/tokens.json; never hardcode hex values in components.",
    question: "where do the dark mode colour tokens come from?",
    decoy: "Dark mode contrast on disabled buttons fails the accessibility audit.",
  },
  {
    fact: "The websocket server sends a heartbeat ping every 25 seconds and drops clients after two missed pongs.",
    question: "how often does the websocket heartbeat ping go out?",
    decoy: "The websocket reconnect storm after the deploy overloaded the load balancer.",
  },
  {
    fact: "Database migrations must stay backwards compatible for one release so blue-green deploys can roll back.",
    question: "why do migrations have to be backwards compatible?",
    decoy: "The migration that added the tenants index took 12 minutes on production.",
  },
  {
    fact: "Customer PII is encrypted at rest with per-tenant keys stored in AWS KMS and rotated yearly.",
    question: "how is customer pii encrypted at rest?",
    decoy: "Customer support wants a way to impersonate a tenant for debugging.",
  },
  {
    fact: "The CI pipeline caches node_modules keyed by the package-lock.json hash, which cut builds from 9 to 4 minutes.",
    question: "what is the ci cache keyed on?",
    decoy: "CI flakes on the Playwright suite about once a day; retry the job once.",
  },
];

export interface Conversation {
  /** Each turn: a user message and the assistant's reply, as one text. */
  turns: string[];
  /** Index into `turns` of the turn holding the planted fact. */
  plantedTurn: number;
}

const CHATTER_REPLIES = [
  "Makes sense, go ahead.", "Thanks, that worked.", "Let me try that and get back to you.", "Ok, running it now.", "Good catch, I missed that.",
];

function chatterTurn(r: Rand): string {
  const user = r() < 0.5 ? userText(r) : pick(r, SENTENCES)(r);
  const assistant = r() < 0.5 ? assistantText(r) : `${pick(r, SENTENCES)(r)} ${pick(r, SENTENCES)(r)}`;
  return `User: ${user}\nAssistant: ${assistant}`;
}

/**
 * `PLANTED_FACTS.length` conversations of `turns` turns of development chatter. Conversation i
 * states fact i in one turn (said by the user or by the assistant) and carries the decoy of
 * another fact in another turn.
 */
export function plantedConversations(turns = 20, seed = 0x5eed): Conversation[] {
  const r = rng(seed);
  const n = PLANTED_FACTS.length;
  return PLANTED_FACTS.map((f, i) => {
    const out = Array.from({ length: turns }, () => chatterTurn(r));
    const plantedTurn = int(r, 1, turns - 2);
    out[plantedTurn] =
      r() < 0.5
        ? `User: ${f.fact} ${pick(r, CHATTER_REPLIES)}\nAssistant: Noted. ${pick(r, SENTENCES)(r)}`
        : `User: ${userText(r)}\nAssistant: ${pick(r, SENTENCES)(r)} Also, ${f.fact[0].toLowerCase()}${f.fact.slice(1)}`;
    let decoyTurn = int(r, 0, turns - 1);
    if (decoyTurn === plantedTurn) decoyTurn = (decoyTurn + 1) % turns;
    out[decoyTurn] = `User: ${PLANTED_FACTS[(i + 7) % n].decoy}\nAssistant: ${pick(r, SENTENCES)(r)}`;
    return { turns: out, plantedTurn };
  });
}
