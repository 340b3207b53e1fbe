import type { NextConfig } from "next";
import { BASE_SECURITY_HEADERS } from "./lib/api/security-headers";

const nextConfig: NextConfig = {
  // PGlite ships WASM + data files and tiktoken ships WASM; bundling them breaks their file lookups.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@dqbd/tiktoken",
  ],
  poweredByHeader: false,
  // `npm run typecheck` (first step of `npm test`) checks the whole tree; checking again here
  // only slows every build on a 2-core machine.
  typescript: { ignoreBuildErrors: true },
  // Static assets pass neither the middleware nor a route handler; they get the same headers.
  async headers() {
    return [{ source: "/_next/static/:path*", headers: BASE_SECURITY_HEADERS.map(([key, value]) => ({ key, value })) }];
  },
};

export default nextConfig;
