import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM + data files and tiktoken ships WASM; bundling them breaks their file lookups.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@dqbd/tiktoken",
  ],
  poweredByHeader: false,
};

export default nextConfig;
