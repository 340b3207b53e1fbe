// Imported by next.config.ts too, so nothing here may use the "@/" path alias.

/** Headers every response carries; the Content-Security-Policy is added per response type. */
export const BASE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
];

/** JSON answers load nothing and are framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The pages' policy: scripts only from this origin and with this response's nonce (Next.js
 * puts it on its own scripts), no eval outside development, no framing. Inline style
 * attributes stay allowed: React renders dynamic widths (the token bar) as style attributes.
 * Images and audio/video may come from any https origin: Claude puts media on the canvas by
 * URL (lib/canvas/elements.ts admits https only), loaded without a referrer once the user
 * shows media from its host (components/canvas/CanvasMedia.tsx).
 */
export function pageCsp(opts: { nonce: string; dev: boolean; connect: string[] }): string {
  const connect = ["'self'", ...opts.connect].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${opts.nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data: https:",
    "media-src 'self' https:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
