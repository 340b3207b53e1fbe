// What the fake servers (Anthropic, Supabase Auth and Storage, Voyage) share: listening, reading a request, and the
// typed control clients' one call.
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The body as JSON, or null when it is empty or not JSON (the fakes answer that themselves). */
export function parseJson(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A control endpoint caller for a standalone fake at `baseUrl`; `name` labels its errors. */
export function controlCaller(name: string, baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, "");
  return async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${name} ${method} ${path} → ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };
}

/** Starts `server` listening; answers its base URL (IPv6 addresses bracketed). */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${urlHost}:${address.port}`;
}
