import { z } from "zod";
import { described, named } from "./meta";

/** GET /api/health when the database answers: what a load balancer or an operator checks. */
export const healthShape = named(
  "Health",
  z.object({
    status: z.literal("ok"),
    database: z.literal("ok"),
    migration: described(z.string(), "The latest migration applied to the database (a file name in supabase/migrations)."),
    version: described(z.string(), "The app's version (package.json)."),
  }),
  "The server runs and its database answers.",
);
export type HealthJson = z.infer<typeof healthShape>;

/** GET /api/health when the database does not answer (in time). */
export const healthUnavailableShape = named(
  "HealthUnavailable",
  z.object({
    status: z.literal("unavailable"),
    reason: described(z.string(), "Why, in a few words (no connection details)."),
  }),
  "The server runs but cannot serve: its database did not answer, or its storage is full.",
);
export type HealthUnavailableJson = z.infer<typeof healthUnavailableShape>;

/** GET /api/storage: whether this server can keep saving, for the app's warning banner. */
export const storageShape = named(
  "Storage",
  z.object({
    level: described(
      z.enum(["ok", "low", "full"]),
      "`full`: writes are refused (507 `storage_full`) until space is freed; `low`: free space is under the warning level; `ok` otherwise, and whenever it cannot be measured.",
    ),
    free_bytes: described(z.number().int().nullable(), "Free space on the embedded database's device; null in SaaS mode and on PostgreSQL, whose disk this server cannot see."),
    warn_below_bytes: described(z.number().int().nullable(), "The warning level (THREADKEEPER_STORAGE_WARN_MB); null where `free_bytes` is."),
    refuse_below_bytes: described(z.number().int().nullable(), "Writes are refused under this (THREADKEEPER_STORAGE_FLOOR_MB); null where `free_bytes` is."),
  }),
  "How full the server's storage is.",
);
export type StorageJson = z.infer<typeof storageShape>;
