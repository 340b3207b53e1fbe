/**
 * Checks the JSON bodies of the control endpoints, so a typo in a Playwright test fails loudly
 * (400 naming the field) instead of minting a silently different token.
 */
import type { CreateUserInput, MintOptions, MintSigning, RotateKeyOptions } from "./types";

const SIGNINGS: readonly MintSigning[] = ["current", "forged", "unknown-kid", "none", "hs256"];

function objectBody(json: unknown, what: string): Record<string, unknown> {
  if (json === null || json === undefined) return {};
  if (typeof json !== "object" || Array.isArray(json)) throw new Error(`${what}: body must be a JSON object`);
  return json as Record<string, unknown>;
}

function optional<T>(body: Record<string, unknown>, key: string, check: (v: unknown) => v is T, expected: string): T | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new Error(`${key}: expected ${expected}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isSigning = (v: unknown): v is MintSigning => typeof v === "string" && (SIGNINGS as readonly string[]).includes(v);

export function parseMintOptions(json: unknown): MintOptions {
  const body = objectBody(json, "mint");
  return {
    user: optional(body, "user", isString, "a user id or email"),
    claims: optional(body, "claims", isRecord, "an object"),
    expiresIn: optional(body, "expiresIn", isNumber, "seconds"),
    signing: optional(body, "signing", isSigning, SIGNINGS.join(" | ")),
    kid: optional(body, "kid", isString, "a string"),
    hsSecret: optional(body, "hsSecret", isString, "a string"),
  };
}

export function parseRotateKeyOptions(json: unknown): RotateKeyOptions {
  const body = objectBody(json, "rotate-key");
  return {
    dropOld: optional(body, "dropOld", isBoolean, "a boolean"),
    graceSeconds: optional(body, "graceSeconds", isNumber, "seconds"),
  };
}

export function parseCreateUser(json: unknown): CreateUserInput {
  const body = objectBody(json, "users");
  const email = optional(body, "email", isString, "a string");
  const password = optional(body, "password", isString, "a string");
  if (email === undefined || password === undefined) throw new Error("users: email and password are required");
  return {
    email,
    password,
    confirmed: optional(body, "confirmed", isBoolean, "a boolean"),
    userMetadata: optional(body, "userMetadata", isRecord, "an object"),
  };
}
