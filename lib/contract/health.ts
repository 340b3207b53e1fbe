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
