// One webhook POST. Node's http(s) rather than fetch, for its `lookup` hook: in SaaS mode the
// connection may only reach a public address, checked on the address actually connected to.
import "server-only";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPublicAddress, publicOnlyLookup } from "./addresses";

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Refuse loopback, private, link-local and other special-purpose addresses. */
  publicOnly: boolean;
}

/** POSTs the body and resolves with the status code (redirects are not followed, the response body is discarded). */
export function post(url: string, o: PostOptions): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  // An address written as such is connected to without a lookup: checked here instead.
  if (o.publicOnly && isIP(host) !== 0 && !isPublicAddress(host)) {
    return Promise.reject(new Error(`refused: ${host} is not a public address`));
  }
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const rq = client.request(
      target,
      {
        method: "POST",
        headers: { ...o.headers, "content-length": String(Buffer.byteLength(o.body)) },
        lookup: o.publicOnly ? publicOnlyLookup : undefined,
        signal: AbortSignal.timeout(o.timeoutMs),
      },
      (rs) => {
        rs.resume();
        resolve(rs.statusCode ?? 0);
      },
    );
    rq.on("error", reject);
    rq.end(o.body);
  });
}
