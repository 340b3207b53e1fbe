import { z } from "zod";
import { described, named } from "./meta";

export const apiError = named(
  "ApiError",
  z.object({
    error: z.object({
      code: described(z.string(), "Stable, machine-readable: switch on this, not on the message."),
      message: described(z.string(), "For people; a 400 names the offending field."),
      details: described(z.unknown().optional(), "Whatever helps: a 400 lists every zod issue, a 409 or 413 the figures behind it."),
      request_id: described(z.string().optional(), "A 500 only: the request's id (also in the `x-request-id` header), to quote when reporting it."),
    }),
  }),
  "Every error, with the matching HTTP status.",
);

export type ApiErrorJson = z.infer<typeof apiError>;
