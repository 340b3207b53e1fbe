# syntax=docker/dockerfile:1
# Threadkeeper's container image: Next.js's standalone server (next.config.ts: output "standalone",
# which THREADKEEPER_STANDALONE=1 turns on for this build)
# on Debian's slim Node.js 20, running as an unprivileged user. Build and run:
#   docker build -t threadkeeper .
#   docker run -p 127.0.0.1:3000:3000 threadkeeper                  # embedded PGlite in /app/data
#   docker run -p 127.0.0.1:3000:3000 -e DATABASE_URL=postgres://… threadkeeper
# compose.yml runs two instances on PostgreSQL 15 + pgvector; docs/deploy.md says more.
# tests/pg/standalone.test.ts lays the build out exactly as the runner stage's COPY lines below
# (it reads them) and runs `node server.js` as CMD does: keep the COPY lines in that one form.

ARG NODE_IMAGE=node:20-bookworm-slim

# The dependencies, from the lockfile alone (so this layer is reused while it is unchanged).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The build: .next/standalone (server.js and the traced node_modules) and .next/static.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    THREADKEEPER_STANDALONE=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npx next build

# What runs: no compiler, no dev dependencies, no sources.
FROM ${NODE_IMAGE} AS runner
WORKDIR /app
ENV NODE_ENV=production \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    NEXT_TELEMETRY_DISABLED=1
RUN groupadd --system --gid 1001 threadkeeper \
 && useradd --system --uid 1001 --gid threadkeeper --home-dir /app --no-create-home threadkeeper
# The code belongs to root and is read-only to the app.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
# Read at run time through process.cwd(): the migrations the app applies at start-up, and the
# auth shim of the embedded database (used without DATABASE_URL). The tracing includes them
# too (next.config.ts); copied here so the image never depends on it.
COPY --from=build /app/supabase/migrations ./supabase/migrations
COPY --from=build /app/lib/db/embedded-auth.sql ./lib/db/embedded-auth.sql
# Writable: the embedded database's folder (THREADKEEPER_DATA_DIR defaults to ./data/pglite;
# mount a volume here to keep it) and Next.js's cache.
RUN mkdir -p /app/data /app/.next/cache \
 && chown threadkeeper:threadkeeper /app/data /app/.next/cache
USER threadkeeper
EXPOSE 3000
# The slim image has no curl: Node's fetch asks /api/health (200 when the database answers).
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
