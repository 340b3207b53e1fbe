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

export const bearerError = named(
  "BearerError",
  z.object({
    error: described(z.string(), "RFC 6750's code, as in the `WWW-Authenticate` challenge (`invalid_token`, `insufficient_scope`); `unauthenticated` when no credentials came, which the challenge leaves bare."),
    error_description: described(z.string(), "Why, for people: what MCP clients show."),
    code: described(z.string(), "Threadkeeper's own code for it (`invalid_api_key`, `token_expired`, …), as the other routes answer it."),
    details: described(z.unknown().optional(), "As in ApiError: an API key's `reason`, the scope needed."),
  }),
  "An authentication failure of the MCP endpoint (401, and 403 for a scope), in OAuth's shape (RFC 6750, the MCP authorization spec), so MCP clients show why.",
);
export type BearerErrorJson = z.infer<typeof bearerError>;
