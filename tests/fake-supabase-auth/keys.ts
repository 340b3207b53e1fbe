/**
 * The fake's signing keys: ES256 key pairs with a published JWKS, rotation with a grace period,
 * signing (honest and deliberately broken, for attack tests) and GoTrue-style verification.
 */
import { randomUUID } from "node:crypto";
import {
  SignJWT,
  base64url,
  decodeProtectedHeader,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from "jose";
import type { MintSigning, RotateKeyResult } from "./types";

/**
 * The JWT secret every Supabase CLI project ships with (`supabase start`), i.e. the first secret
 * an attacker tries against an HS256-accepting verifier.
 */
export const GUESSABLE_HS256_SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

interface RetiredKey {
  key: SigningKey;
  /** Epoch ms after which the key leaves the JWKS. */
  until: number;
}

export interface SignOptions {
  signing: MintSigning;
  kid?: string;
  hsSecret?: string;
}

/** Why a token was refused, worded like GoTrue's `bad_jwt` messages. */
export class TokenRejected extends Error {}

async function newSigningKey(kid: string = randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  // Same members as Supabase's published JWKS (ext and key_ops included): supabase-js's
  // getClaims hands the JWK straight to WebCrypto's importKey, which checks them.
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig", key_ops: ["verify"], ext: true };
  return { kid, privateKey, publicKey, jwk };
}

function encodeSegment(value: object): string {
  return base64url.encode(JSON.stringify(value));
}

export class KeyRing {
  private retired: RetiredKey[] = [];
  /** Lazily made; one per ring so forged tokens are at least consistently forged. */
  private attacker: Promise<SigningKey> | null = null;

  private constructor(private current: SigningKey) {}

  static async create(): Promise<KeyRing> {
    return new KeyRing(await newSigningKey());
  }

  get kid(): string {
    return this.current.kid;
  }

  async rotate(opts: { dropOld?: boolean; graceSeconds: number }): Promise<RotateKeyResult> {
    const previous = this.current;
    this.current = await newSigningKey();
    if (opts.dropOld) this.retired = [];
    else this.retired.push({ key: previous, until: Date.now() + opts.graceSeconds * 1000 });
    return { kid: this.current.kid, previousKid: previous.kid };
  }

  /** The current key first, then retired keys still in their grace period. */
  jwks(): { keys: JWK[] } {
    return { keys: this.liveKeys().map((k) => k.jwk) };
  }

  async sign(payload: JWTPayload, opts: SignOptions): Promise<string> {
    const kid = opts.kid ?? this.current.kid;
    switch (opts.signing) {
      case "current":
        return new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(this.current.privateKey);
      case "forged": {
        const attacker = await this.attackerKey();
        return new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(attacker.privateKey);
      }
      case "unknown-kid": {
        const attacker = await this.attackerKey();
        return new SignJWT(payload)
          .setProtectedHeader({ alg: "ES256", kid: opts.kid ?? attacker.kid, typ: "JWT" })
          .sign(attacker.privateKey);
      }
      case "none":
        // jose refuses to produce alg "none" through SignJWT, and that is the point of the test.
        return `${encodeSegment({ alg: "none", kid, typ: "JWT" })}.${encodeSegment(payload)}.`;
      case "hs256":
        return new SignJWT(payload)
          .setProtectedHeader({ alg: "HS256", kid, typ: "JWT" })
          .sign(new TextEncoder().encode(opts.hsSecret ?? GUESSABLE_HS256_SECRET));
    }
  }

  /** Verifies as GoTrue does for its own endpoints: signature by a published key and `exp`; aud and iss are not checked. */
  async verify(token: string): Promise<JWTPayload> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new TokenRejected("token is malformed");
    }
    if (header.alg !== "ES256") throw new TokenRejected(`signing method ${String(header.alg)} is invalid`);
    const key = this.liveKeys().find((k) => k.kid === header.kid);
    if (!key) throw new TokenRejected(`unrecognized JWT kid ${String(header.kid)} for algorithm ES256`);
    try {
      const { payload } = await jwtVerify(token, key.publicKey, { algorithms: ["ES256"] });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new TokenRejected("token has invalid claims: token is expired");
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenRejected("token signature is invalid");
      throw new TokenRejected(err instanceof Error ? err.message : String(err));
    }
  }

  private liveKeys(): SigningKey[] {
    const now = Date.now();
    this.retired = this.retired.filter((r) => r.until > now);
    return [this.current, ...this.retired.map((r) => r.key)];
  }

  private attackerKey(): Promise<SigningKey> {
    this.attacker ??= newSigningKey();
    return this.attacker;
  }
}
