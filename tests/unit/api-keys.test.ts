import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkKeyFormat, checksum, crc32, generateKey, hashKey, KEY_PREFIX, visiblePrefix } from "@/lib/keys/format";
import { scopeForMethod } from "@/lib/contract";
import { grants, normalizeScopes, requireScope } from "@/lib/keys/scopes";
import { AppError } from "@/lib/errors";

describe("the key format", () => {
  it("is tk_live_, 32 random base62 characters and a 6-character checksum of them", () => {
    const { secret, hash, prefix } = generateKey();
    expect(secret).toMatch(/^tk_live_[0-9A-Za-z]{38}$/);
    expect(secret.slice(-6)).toBe(checksum(secret.slice(KEY_PREFIX.length, -6)));
    expect(hash).toBe(hashKey(secret));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefix).toBe(secret.slice(0, 16));
    expect(visiblePrefix(secret)).toBe(prefix);
    expect(checkKeyFormat(secret)).toBeNull();
  });

  it("never repeats and spreads over the whole alphabet", () => {
    const keys = Array.from({ length: 2000 }, () => generateKey().secret);
    expect(new Set(keys).size).toBe(keys.length);
    const chars = new Set(keys.flatMap((k) => [...k.slice(KEY_PREFIX.length, -6)]));
    expect(chars.size).toBe(62);
  });

  it("computes the CRC-32 zlib computes", () => {
    for (const text of ["", "a", "tk_live_abc", "0123456789ABCDEFGHIJKLMNOPQRSTUV", "ü€"]) expect(crc32(text)).toBe(zlibCrc32(text));
  });

  it("pads the checksum to 6 characters", () => {
    for (let i = 0; i < 200; i++) expect(checksum(`x${i}`)).toMatch(/^[0-9A-Za-z]{6}$/);
  });

  it("rejects a typo by checksum, and anything else shaped wrong, without a lookup", () => {
    const { secret } = generateKey();
    const at = KEY_PREFIX.length + 5;
    const typo = secret.slice(0, at) + (secret[at] === "a" ? "b" : "a") + secret.slice(at + 1);
    expect(checkKeyFormat(typo)).toBe("bad_checksum");
    const swapped = secret.slice(0, at) + secret[at + 1] + secret[at] + secret.slice(at + 2);
    if (secret[at] !== secret[at + 1]) expect(checkKeyFormat(swapped)).toBe("bad_checksum");
    expect(checkKeyFormat(secret.slice(0, -1))).toBe("malformed");
    expect(checkKeyFormat(secret + "x")).toBe("malformed");
    expect(checkKeyFormat(secret.replace("tk_live_", "tk_test_"))).toBe("malformed");
    expect(checkKeyFormat(secret.slice(0, 20) + "-" + secret.slice(21))).toBe("malformed");
  });
});

describe("scopes", () => {
  it("GET and HEAD need read, every other method write", () => {
    expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].map(scopeForMethod)).toEqual(["read", "read", "write", "write", "write", "write"]);
  });

  it("read and write are independent; admin covers all three", () => {
    expect(grants(["read"], "read")).toBe(true);
    expect(grants(["read"], "write")).toBe(false);
    expect(grants(["write"], "read")).toBe(false);
    expect(grants(["read", "write"], "admin")).toBe(false);
    expect(["read", "write", "admin"].every((s) => grants(["admin"], s as "read"))).toBe(true);
  });

  it("normalizes to read, write, admin order without duplicates", () => {
    expect(normalizeScopes(["admin", "read", "read"])).toEqual(["read", "admin"]);
  });

  it("refuses with 403 insufficient_scope naming the scope, and lets callers without a key through", () => {
    expect(() => requireScope(null, "admin")).not.toThrow();
    expect(() => requireScope(["read", "write"], "write")).not.toThrow();
    let err: unknown;
    try {
      requireScope(["read"], "write");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect([e.status, e.code]).toEqual([403, "insufficient_scope"]);
    expect(e.message).toContain("'write'");
    expect(e.details).toEqual({ required_scope: "write", key_scopes: ["read"] });
    expect(e.headers?.["WWW-Authenticate"]).toBe(`Bearer error="insufficient_scope", error_description="${e.message}", scope="write"`);
  });
});
