import type { NextConfig } from "next";
import { BASE_SECURITY_HEADERS } from "./lib/api/security-headers";

/** What public/ serves (the icons and the web manifest). */
const PUBLIC_FILES = [
  "favicon.ico",
  "icon.svg",
  "icon-192.png",
  "icon-512.png",
  "icon-maskable-512.png",
  "apple-touch-icon.png",
  "manifest.webmanifest",
];

/**
 * Files read at run time by path, which the standalone output's tracing cannot see in the code:
 * the migrations and the embedded database's auth shim (read through process.cwd()), and the
 * WASM, data and extension files of PGlite, pgvector and tiktoken (loaded by their packages), and
 * unpdf, which only the PDF worker loads.
 * The Dockerfile copies the first two again, explicitly; tests/pg/standalone.test.ts runs the
 * server laid out as the image is.
 */
const RUNTIME_FILES = [
  "./supabase/migrations/*.sql",
  "./lib/db/embedded-auth.sql",
  "./node_modules/@electric-sql/pglite/dist/*.{wasm,data}",
  "./node_modules/@electric-sql/pglite-pgvector/dist/*.tar.gz",
  "./node_modules/@dqbd/tiktoken/tiktoken_bg.wasm",
  // lib/files/pdf.ts's worker requires unpdf by name from an inline source no tracer reads.
  "./node_modules/unpdf/package.json",
  "./node_modules/unpdf/dist/*.{cjs,mjs}",
];

const nextConfig: NextConfig = {
  // .next/standalone (server.js and only the node_modules files it needs) when the build is for
  // the container image: the Dockerfile and the test suites build with THREADKEEPER_STANDALONE=1.
  // Read again by `next start`, which would warn that it is not the standalone server if it were
  // set: `npm start` builds and serves without it.
  output: process.env.THREADKEEPER_STANDALONE === "1" ? "standalone" : undefined,
  outputFileTracingIncludes: { "/**": RUNTIME_FILES },
  // PGlite ships WASM + data files and tiktoken ships WASM; bundling them breaks their file lookups.
  // prom-client and the OpenTelemetry SDK are Node-only and hold process-wide state: loaded once
  // from node_modules rather than bundled into each layer (the SDK only when tracing is on).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@dqbd/tiktoken",
    "prom-client",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/resources",
    "@opentelemetry/core",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
  poweredByHeader: false,
  // `npm run typecheck` (first step of `npm test`) checks the whole tree; checking again here
  // only slows every build on a 2-core machine.
  typescript: { ignoreBuildErrors: true },
  // Static assets pass neither the middleware nor a route handler; they get the same headers.
  // The files of public/ are listed one by one: middleware.ts skips exactly these.
  async headers() {
    const headers = BASE_SECURITY_HEADERS.map(([key, value]) => ({ key, value }));
    return [
      { source: "/_next/static/:path*", headers },
      { source: `/:file(${PUBLIC_FILES.map((f) => f.replace(/\./g, "\\.")).join("|")})`, headers },
    ];
  },
};

export default nextConfig;
